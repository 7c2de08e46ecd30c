"""Allocates --mb megabytes (default 2048) on --at (default act), without catching MemoryError."""

import _wire


def hog(request, args, state):
    hoard = bytearray(args.mb * 1024 * 1024)
    hoard[::4096] = b"x" * len(hoard[::4096])
    _wire.ok(request, state)


if __name__ == "__main__":
    _wire.main(hog, options=lambda p: p.add_argument("--mb", type=int, default=2048))
