# Assay's runner for a question's own checker: for problems with many valid answers, check(input, output, expected)
# decides whether an output is right. It runs in a sandbox of its own; the program whose outputs it judges ran in
# another and is gone, and its outputs arrive here as plain JSON data. One JSON line per case goes to a private
# duplicate of stdout, so the checker's own prints cannot be taken for verdicts.
def main():
    config, send = open_channel()
    ns = {"__name__": "checker", "__builtins__": __builtins__}
    try:
        exec(compile(config["checker_code"], "checker.py", "exec"), ns)
        check = ns["check"]
    except BaseException as error:
        send({"load_error": "the question's checker failed to load: " + describe(error)})
        return
    for index, case in enumerate(config["cases"]):
        try:
            signal.setitimer(signal.ITIMER_REAL, float(config.get("case_timeout", 4)))
            verdict = check(case["input"], case["output"], case["expected"])
            signal.setitimer(signal.ITIMER_REAL, 0)
            message = ""
            if isinstance(verdict, tuple):
                verdict, message = verdict[0], str(verdict[1]) if len(verdict) > 1 else ""
            send({"i": index, "accepted": verdict is True, "message": message[:2000]})
        except CaseTimeout:
            send({"i": index, "error": "the question's checker took too long"})
        except AssertionError as error:
            signal.setitimer(signal.ITIMER_REAL, 0)
            send({"i": index, "accepted": False, "message": describe(error)})
        except BaseException as error:
            signal.setitimer(signal.ITIMER_REAL, 0)
            send({"i": index, "error": "the question's checker failed: " + describe(error)})


main()
