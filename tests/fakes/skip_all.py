"""Says hello, then answers every start, act and observe with skipped."""

import _wire


def skip(request, args, state):
    _wire.send({"seq": request["seq"], "skipped": {"reason": f"{request['cmd']} not modelled"}})


if __name__ == "__main__":
    _wire.main(skip, at="start,act,observe")
