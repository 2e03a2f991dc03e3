# Shared by Assay's judging processes (checker.py for HumanEval test code, verify.py for a question's own checker),
# prepended to each: the configuration comes on the first line of stdin, verdicts go out on a private duplicate of
# stdout, and the process's own prints go to stderr, so nothing the judged code or the test code prints can pass
# for a verdict.
import json
import os
import signal
import sys


class CaseTimeout(BaseException):
    pass


def on_alarm(signum, frame):
    raise CaseTimeout()


def describe(error):
    return (type(error).__name__ + ": " + str(error))[:2000]


def open_channel():
    """Reads the configuration line and sets the process up; returns the configuration and the verdict sender."""
    config = json.loads(sys.stdin.readline())
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    sys.setrecursionlimit(100000)
    signal.signal(signal.SIGALRM, on_alarm)

    def send(record):
        channel.write(json.dumps(record) + "\n")
        channel.flush()

    return config, send
