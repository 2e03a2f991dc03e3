# Assay's HumanEval checker. Runs the question's test code (check(candidate)) in a sandbox of its own, apart from the
# candidate's program: `candidate` here is a stand-in that sends each call's arguments to Assay, which passes them
# to the program in the other sandbox and brings back its answer as plain data. The program never sees the test code
# or this process, so it can neither read the expected values nor forge the verdict, which this process writes as
# the last line of its stdout.
class ProgramError(Exception):
    """The program raised, or could not answer; the check fails as a runtime error, not a wrong answer."""


def main():
    config, send = open_channel()
    if "path" in config:
        # Started without the site module (-S), which runs every .pth file of the interpreter: on some machines that
        # imports half the standard library, tens of milliseconds of every task. The test code finds the same modules
        # all the same: this is the path site sets up, as Assay found it once for this interpreter.
        sys.path[:] = config["path"]

    def candidate(*args, **kwargs):
        send({"call": {"args": encode(list(args)), "kwargs": {k: encode(v) for k, v in kwargs.items()}}})
        answer = json.loads(sys.stdin.readline())
        if "ok" in answer:
            return decode(answer["ok"])
        raise ProgramError(answer.get("error", "the program did not answer"))

    ns = {"__name__": "checker", "__builtins__": __builtins__}
    try:
        # The question's own text: helpers the test code uses (HumanEval's poly, encode_cyclic) are defined there.
        exec(compile(config.get("prelude", ""), "question.py", "exec"), ns)
        # Test code may call the function by its own name (HumanEval/33 compares candidate(l) with sort_third(l)): in
        # the benchmark's own runner that name is the program's function, so here it is the stand-in, not the
        # question text's stub.
        if config.get("entry_point"):
            ns[config["entry_point"]] = candidate
        exec(compile(config["test_code"], "test.py", "exec"), ns)
    except BaseException as error:
        send({"verdict": "runtime_error", "message": "the test code failed to load: " + describe(error)})
        return
    try:
        signal.setitimer(signal.ITIMER_REAL, float(config.get("case_timeout", 4)))
        ns["check"](candidate)
        signal.setitimer(signal.ITIMER_REAL, 0)
        send({"verdict": "passed"})
    except CaseTimeout:
        send({"verdict": "timeout"})
    except ProgramError as error:
        signal.setitimer(signal.ITIMER_REAL, 0)
        send({"verdict": "runtime_error", "message": str(error)})
    except AssertionError as error:
        signal.setitimer(signal.ITIMER_REAL, 0)
        send({"verdict": "wrong_answer", "message": describe(error)})
    except BaseException as error:
        signal.setitimer(signal.ITIMER_REAL, 0)
        send({"verdict": "runtime_error", "message": describe(error)})


main()
