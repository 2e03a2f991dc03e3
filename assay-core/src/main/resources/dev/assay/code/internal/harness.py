# Assay's Python harness. Reads its configuration (with the run's nonce) from the first line of stdin, loads the
# candidate's code from solution.py into a fresh namespace with the implicit imports of judge sites, runs each case
# under a timer and reports on a private duplicate of stdout, each line prefixed with the nonce, ending in a
# sentinel. The candidate's own stdout goes to stderr, so printing a result line forges nothing.
import json
import math
import os
import signal
import sys

PRELUDE = """
from typing import *
from collections import *
from heapq import *
from bisect import *
from itertools import *
from functools import *
from math import *
from string import *
from operator import xor, add, mul, sub, itemgetter, attrgetter, neg, and_, or_
import collections, heapq, bisect, itertools, functools, math, string, re, operator, random, copy, sys, json
from math import inf
try:
    from sortedcontainers import SortedList, SortedDict, SortedSet
except ImportError:
    pass

class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next

class TreeNode:
    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right
"""


class CaseTimeout(BaseException):
    pass


def on_alarm(signum, frame):
    raise CaseTimeout()


def annotation_text(annotation):
    if annotation is inspect.Parameter.empty or annotation is inspect.Signature.empty:
        return ""
    if annotation is None:
        return "None"
    if isinstance(annotation, str):
        return annotation
    return getattr(annotation, "__name__", None) if not hasattr(annotation, "__args__") else str(annotation)


def to_list_node(ns, values):
    head = None
    for value in reversed(values or []):
        head = ns["ListNode"](value, head)
    return head


def to_tree_node(ns, values):
    if not values or values[0] is None:
        return None
    make = ns["TreeNode"]
    root = make(values[0])
    queue = [root]
    index = 1
    position = 0
    while position < len(queue) and index < len(values):
        node = queue[position]
        position += 1
        for side in ("left", "right"):
            if index < len(values) and values[index] is not None:
                child = make(values[index])
                setattr(node, side, child)
                queue.append(child)
            index += 1
    return root


def convert_in(ns, annotation, value):
    text = annotation_text(annotation) or ""
    if "ListNode" in text:
        if text.replace("typing.", "").startswith("List[") and isinstance(value, list):
            return [to_list_node(ns, item) for item in value]
        return to_list_node(ns, value)
    if "TreeNode" in text:
        return to_tree_node(ns, value)
    return value


def to_json(value, depth=0):
    if depth > 10000:
        raise ValueError("value nests too deeply")
    kind = type(value).__name__
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if kind == "ListNode":
        out, seen = [], 0
        while value is not None:
            out.append(to_json(value.val, depth + 1))
            value = value.next
            seen += 1
            if seen > 1000000:
                raise ValueError("linked list has a cycle")
        return out
    if kind == "TreeNode":
        out, queue, position = [], [value], 0
        while position < len(queue):
            node = queue[position]
            position += 1
            if node is None:
                out.append(None)
            else:
                out.append(to_json(node.val, depth + 1))
                queue.append(node.left)
                queue.append(node.right)
        while out and out[-1] is None:
            out.pop()
        return out
    if isinstance(value, dict):
        return {str(k): to_json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        items = [to_json(v, depth + 1) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return items
    if isinstance(value, (list, tuple)) or kind == "deque":
        return [to_json(v, depth + 1) for v in value]
    return repr(value)


def bind(parameters, arguments):
    """Named arguments by parameter name, positional ones (#0, #1...) first; names that match no parameter fill
    the remaining parameters in order (problem statements and signatures sometimes differ in names)."""
    names = [p.name for p in parameters]
    positional = [v for k, v in arguments.items() if k.startswith("#")]
    named = {k: v for k, v in arguments.items() if not k.startswith("#")}
    values = {}
    for name, value in zip(names, positional):
        values[name] = value
    unmatched = []
    for key, value in named.items():
        if key in names and key not in values:
            values[key] = value
        else:
            unmatched.append(value)
    for name in names:
        if name not in values and unmatched:
            values[name] = unmatched.pop(0)
    if unmatched or len(values) != len(names):
        raise TypeError("arguments %s do not fit parameters %s" % (sorted(arguments), names))
    return [values[name] for name in names]


def user_functions(ns, before):
    return [v for k, v in ns.items() if k not in before and inspect.isfunction(v) and not k.startswith("_")]


def declared_names(signature_source):
    """The public methods of the starter code's (or reference solution's) Solution, and its top-level functions."""
    if not signature_source:
        return set()
    reference = {}
    try:
        exec(PRELUDE, reference)
        before = set(reference)
        exec(compile(signature_source, "signature.py", "exec"), reference)
    except BaseException:
        return set()
    owner = reference.get("Solution")
    if inspect.isclass(owner):
        return {n for n, v in vars(owner).items() if inspect.isfunction(v) and not n.startswith("_")}
    return {f.__name__ for f in user_functions(reference, before)}


def choose(candidates, entry_point, declared, arguments):
    """The entry point among several functions (a solution with helpers): the one named, else the one the starter
    code declares, else the one whose parameter names are the examples' argument names, else the only one taking
    as many arguments as the examples give."""
    if entry_point in candidates:
        return entry_point
    if len(candidates) == 1:
        return next(iter(candidates))
    named = [n for n in candidates if n in declared]
    if len(named) == 1:
        return named[0]
    names = {k for k in arguments if not k.startswith("#")}
    def parameters(function):
        return [p for p in inspect.signature(function).parameters if p != "self"]
    if names:
        matching = [n for n, f in candidates.items() if set(parameters(f)) == names]
        if len(matching) == 1:
            return matching[0]
    fitting = [n for n, f in candidates.items() if len(parameters(f)) == len(arguments)]
    if len(fitting) == 1:
        return fitting[0]
    return None


def find_target(ns, before, entry_point, signature_source, arguments):
    """The callable to test: Solution().method, or a top-level function."""
    declared = declared_names(signature_source)
    solution = ns.get("Solution") if "Solution" not in before else None
    if inspect.isclass(solution):
        methods = {n: v for n, v in vars(solution).items() if inspect.isfunction(v) and not n.startswith("_")}
        name = choose(methods, entry_point, declared, arguments)
        if name is None:
            raise LookupError("cannot tell which Solution method to call: %s" % sorted(methods))
        return name, getattr(solution(), name), getattr(solution, name)
    if entry_point and callable(ns.get(entry_point)):
        return entry_point, ns[entry_point], ns[entry_point]
    functions = {f.__name__: f for f in user_functions(ns, before)}
    name = choose(functions, entry_point, declared, arguments)
    if name is None:
        raise LookupError("no entry point %r among the functions %s" % (entry_point, sorted(functions)))
    return name, functions[name], functions[name]


def signature_of(name, fallback, signature_source):
    """The signature from the question's starter code or reference solution when given, else the candidate's."""
    if signature_source:
        reference = {}
        try:
            exec(PRELUDE, reference)
            exec(compile(signature_source, "signature.py", "exec"), reference)
            owner = reference.get("Solution")
            target = getattr(owner, name, None) if inspect.isclass(owner) else reference.get(name)
            if callable(target):
                return inspect.signature(target)
        except BaseException:
            pass
    return inspect.signature(fallback)


def converted(ns, function, values):
    """Positional values converted to the types the function declares (a constructor taking a TreeNode gets one)."""
    try:
        parameters = [p for p in inspect.signature(function).parameters.values() if p.name != "self"]
    except (TypeError, ValueError):
        return values
    return [convert_in(ns, p.annotation, v) for p, v in zip(parameters, values)] + list(values[len(parameters):])


def run_design(ns, arguments):
    operations, args = arguments["operations"], arguments["arguments"]
    cls = ns.get(operations[0])
    if not inspect.isclass(cls):
        raise LookupError("class %s is not defined" % operations[0])
    obj = cls(*converted(ns, cls.__init__, args[0]))
    results = [None]
    for operation, operation_args in zip(operations[1:], args[1:]):
        method = getattr(obj, operation)
        results.append(to_json(method(*converted(ns, method, operation_args))))
    return results


def find_node(root, value):
    """The node of a tree (or list) holding a value: arguments that name nodes by value (LCA's p and q)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.val == value:
            return node
        stack.extend(n for n in (getattr(node, "left", None), getattr(node, "right", None),
                                 getattr(node, "next", None)) if n is not None)
    raise LookupError("no node with value %r in the structure given" % (value,))


def call_arguments(ns, parameters, values):
    """Values converted by the declared types. A TreeNode/ListNode parameter given a plain value (not a list) names
    a node of the structure another argument builds; {@return the values and whether any named a node so}"""
    converted_values, by_value = [], []
    for position, (parameter, value) in enumerate(zip(parameters, values)):
        text = annotation_text(parameter.annotation) or ""
        if ("TreeNode" in text or "ListNode" in text) and not isinstance(value, list) and value is not None:
            by_value.append(position)
            converted_values.append(value)
        else:
            converted_values.append(convert_in(ns, parameter.annotation, value))
    if by_value:
        structures = [v for i, v in enumerate(converted_values)
                      if i not in by_value and type(v).__name__ in ("TreeNode", "ListNode")]
        if not structures:
            raise LookupError("a node is named by value but no argument is a tree or list to find it in")
        for position in by_value:
            converted_values[position] = find_node(structures[0], converted_values[position])
    return converted_values, bool(by_value)


def serve(ns, entry_point, emit, describe):
    """HumanEval's side of the program: answers the checker's calls, one JSON line each way, until stdin ends. The
    checker, the test code and its verdict live in another sandbox; this process only ever sees arguments."""
    function = ns.get(entry_point)
    for line in sys.stdin:
        if not callable(function):
            emit({"error": "NameError: the program defines no function %r" % entry_point})
            continue
        call = json.loads(line)
        try:
            result = function(*decode(call["args"]), **decode(call["kwargs"]))
            emit({"ok": encode(result)})
        except BaseException as error:
            emit({"error": describe(error)})


def main():
    config = json.loads(sys.stdin.readline())
    nonce = config["nonce"]
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    if not config.get("serve"):
        sys.stdin = open(os.devnull)
        # Only binding examples to parameters reads signatures: HumanEval's serve mode does without the import, a few
        # milliseconds of every start.
        global inspect
        import inspect
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    sys.setrecursionlimit(100000)

    def emit(record):
        channel.write(nonce + " " + json.dumps(record) + "\n")
        channel.flush()

    def describe(error):
        return (type(error).__name__ + ": " + str(error))[:2000]

    signal.signal(signal.SIGALRM, on_alarm)
    case_timeout = float(config.get("case_timeout", 4))
    ns = {"__name__": "solution", "__builtins__": __builtins__}
    exec(PRELUDE, ns)
    before = set(ns)
    with open("solution.py", encoding="utf-8") as source:
        code = source.read()
    try:
        signal.setitimer(signal.ITIMER_REAL, case_timeout)
        exec(compile(code, "solution.py", "exec"), ns)
        signal.setitimer(signal.ITIMER_REAL, 0)
    except CaseTimeout:
        emit({"load_error": "timeout", "message": "loading the code took longer than %ss" % case_timeout})
        emit({"end": True})
        return
    except BaseException as error:
        signal.setitimer(signal.ITIMER_REAL, 0)
        emit({"load_error": "runtime_error", "message": describe(error)})
        emit({"end": True})
        return

    if config.get("serve"):
        serve(ns, config.get("entry_point"), emit, describe)
        return

    target = None
    for index, case in enumerate(config["cases"]):
        arguments = case["input"]
        try:
            signal.setitimer(signal.ITIMER_REAL, case_timeout)
            if case.get("design"):
                actual = run_design(ns, arguments)
            else:
                if target is None:
                    name, bound, raw = find_target(ns, before, config.get("entry_point"),
                                                   config.get("signature_source"), arguments)
                    signature = signature_of(name, raw, config.get("signature_source"))
                    parameters = [p for p in signature.parameters.values() if p.name != "self"]
                    target = (bound, parameters, signature.return_annotation)
                bound, parameters, returns = target
                values, by_value = call_arguments(ns, parameters, bind(parameters, arguments))
                result = bound(*values)
                returned = annotation_text(returns) or ""
                # A method declared (or found) to return nothing is judged on its first argument after the call:
                # the array it sorted, the tree it flattened.
                first = annotation_text(parameters[0].annotation) or "" if parameters else ""
                in_place = result is None and returned in ("None", "NoneType", "") and values and (
                    type(values[0]).__name__ in ("list", "TreeNode", "ListNode")
                    or "TreeNode" in first or "ListNode" in first)
                if by_value and type(result).__name__ in ("TreeNode", "ListNode"):
                    # Nodes named by value in, a node's value out (LCA answers 6, not the subtree under 6).
                    actual = to_json(result.val)
                else:
                    actual = to_json(values[0] if in_place else result)
                structure = returned if not in_place else first
                if actual is None and ("TreeNode" in structure or "ListNode" in structure):
                    actual = []
            signal.setitimer(signal.ITIMER_REAL, 0)
            emit({"i": index, "status": "ok", "actual": actual})
        except CaseTimeout:
            emit({"i": index, "status": "timeout"})
        except BaseException as error:
            signal.setitimer(signal.ITIMER_REAL, 0)
            emit({"i": index, "status": "runtime_error", "message": describe(error)})
    emit({"end": True})


main()
