"""A well-behaved engine: echoes actions as events, observes what it was told."""

import _wire

if __name__ == "__main__":
    _wire.main()
