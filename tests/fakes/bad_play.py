"""The tiny Python engine behind `serve`, whose play replies break one rule.

    python bad_play.py short|stateless|hang

``short`` drops the last step's reply; ``stateless`` drops every state;
``hang`` never answers a play.
"""

import json
import sys
import time

from python_engine import TinyEngine

from conformance._protocol import _encode_reply, encode, handle


def main(mode: str) -> None:
    engine = TinyEngine()
    for line in sys.stdin.buffer:
        if mode == "hang" and json.loads(line).get("cmd") == "play":
            time.sleep(60)
        reply, stop = handle(engine, line)
        reply = json.loads(_encode_reply(reply))
        if "replies" in (reply.get("ok") or {}):
            replies = reply["ok"]["replies"]
            if mode == "short":
                replies.pop()
            else:
                for step in replies:
                    step.pop("state", None)
        sys.stdout.buffer.write(encode(reply))
        sys.stdout.buffer.flush()
        if stop:
            return


if __name__ == "__main__":
    main(sys.argv[1])
