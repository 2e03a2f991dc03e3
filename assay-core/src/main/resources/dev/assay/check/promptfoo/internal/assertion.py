# Runs one promptfoo `python` assertion inside Assay's sandbox (docs/promptfoo-assertions.md, "python").
# Reads input.json ({script, output, context}), runs the script Assay built as promptfoo builds it
# (src/assertions/python.ts: the code as the body of main(output, context)), calls main and writes what it returned,
# or why it failed, to result.json for Assay to read.
import json
import traceback

with open("input.json", encoding="utf-8") as source:
    data = json.load(source)
try:
    namespace = {"__name__": "assertion"}
    exec(compile(data["script"], "assertion.py", "exec"), namespace)
    result = {"returned": namespace["main"](data["output"], data["context"])}
    text = json.dumps(result)
except Exception as error:  # the assertion's own failure, reported as promptfoo reports it
    text = json.dumps({"error": str(error), "stack": traceback.format_exc()})
with open("result.json", "w", encoding="utf-8") as target:
    target.write(text)
