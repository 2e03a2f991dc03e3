# Plain data across the sandboxes of a HumanEval check: the values the test code passes to the program and the
# program's answers, as JSON with tuples, sets and dicts of any keys tagged. Only such data crosses, so an object
# that claims to equal anything cannot. Prepended by Assay to checker.py and harness.py.
import json


def encode(value):
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"$tuple": [encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"$set": [encode(v) for v in value], "frozen": isinstance(value, frozenset)}
    if isinstance(value, dict):
        return {"$dict": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError("a %s is not plain data" % type(value).__name__)


def decode(value):
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if "$tuple" in value:
            return tuple(decode(v) for v in value["$tuple"])
        if "$set" in value:
            items = [decode(v) for v in value["$set"]]
            return frozenset(items) if value.get("frozen") else set(items)
        if "$dict" in value:
            return {decode(k): decode(v) for k, v in value["$dict"]}
        return {k: decode(v) for k, v in value.items()}
    return value
