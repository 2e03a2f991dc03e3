# The signatures of a reference solution without its code: what the harness needs of a question with no starter code
# (the names it declares, their parameters and annotations), written to skeleton.py. The candidate's program runs in
# the harness's process and can read anything in it, so the reference itself must never be given to that process.
# Only parsed, never run. Imports, classes and functions are kept; every body becomes `...`; anything else (constants,
# tables, docstrings) and any default or decorator that is more than a plain value or name is dropped.
import ast


def plain(value):
    return isinstance(value, ast.Constant) and (value.value is None or isinstance(value.value, (bool, int, float)))


def named(decorators):
    return [d for d in decorators if isinstance(d, (ast.Name, ast.Attribute))]


def stripped(body):
    kept = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            kept.append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.decorator_list = named(node.decorator_list)
            node.args.defaults = [d if plain(d) else ast.Constant(None) for d in node.args.defaults]
            node.args.kw_defaults = [d if d is None or plain(d) else ast.Constant(None) for d in node.args.kw_defaults]
            node.body = [ast.Expr(ast.Constant(...))]
            kept.append(node)
        elif isinstance(node, ast.ClassDef):
            node.decorator_list = named(node.decorator_list)
            node.body = stripped(node.body) or [ast.Expr(ast.Constant(...))]
            kept.append(node)
    return kept


with open("source.py", encoding="utf-8") as source:
    tree = ast.parse(source.read())
tree.body = stripped(tree.body)
with open("skeleton.py", "w", encoding="utf-8") as skeleton:
    skeleton.write(ast.unparse(ast.fix_missing_locations(tree)))
