"""Static check of our pythonscript scripts against the engine's own API (api.json).

pythonscript (godot-python 0.50) cannot run here, so a typo such as
``tilemap.get_cellz(x, y)`` would only show up in a game. This module reads
the scripts with :mod:`ast` and checks every Godot name it can attach to a
class: imports from ``godot``, methods (and their argument counts and keyword
names), properties, constants, signals, and names passed as strings to
``get`` / ``set`` / ``connect`` / ``emit_signal`` / ``call`` / ``is_class``.

Which expressions are Godot objects of which class:

- ``self`` in an ``@exposed`` class: its Godot base class, plus the script's
  own methods, exported fields, signals and attributes, and the methods and
  properties of plain Python mixins it imports from ``pathing_py`` (their
  bodies are plain Python, not checked here);
- singletons imported from ``godot`` (``Engine`` is a ``_Engine``);
- results of Godot methods and properties whose type is a Godot class
  (``tilemap.get_tileset()`` is a ``TileSet``), and of ``X.new()`` / ``X()``;
- names and parameters annotated with a Godot class (``tilemap: TileMap =
  self.get_node(path)``): the annotation is the cast the analyzer trusts;
  an annotated name keeps its class for the rest of the function, through
  later assignments and as a ``for`` target, as Python's own annotations
  do: declare a loop variable first (``node: TileMap``, then ``for node, x
  in pairs:``) to have the loop's calls checked;
- names annotated with the ``@exposed`` class of another checked script, as a
  string (``navgrid: "NavGrid" = …``): its base class plus that script's
  methods, properties and signals, so that calls from one script to another
  (``navgrid.call("start_bake", path)``, ``connect`` to its signals) are
  checked too, argument counts included;
- results of the script's own methods annotated to return a Godot class.

Anything else is plain Python and is not checked: keep Godot calls on names
the rules above can type. The rules of pythonscript 0.50 that are checked on
top (from its binding generator and GODOT_NOTES.md): virtual, vararg and
editor-only methods are not bound (``call`` is, by hand); argument names that
are Python keywords get a trailing underscore; property names lose their
``/``; classes whose name starts with ``_`` are imported from
``godot.bindings``; reference types are created with ``X()``, others with
``X.new()``; one ``@exposed`` class per script; ``int`` results must pass
through ``signed_int`` (unsigned 64-bit returns, upstream issue #365);
property syntax on Godot objects is not used inside loops (50 µs a call).
"""

import ast
import difflib
import keyword
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple, Union

#: Value types of pythonscript 0.50 (``godot.builtins`` / pool arrays), importable from ``godot``.
PYTHONSCRIPT_BUILTINS = frozenset(
    {
        "AABB",
        "Array",
        "Basis",
        "Color",
        "Dictionary",
        "GDString",
        "NodePath",
        "Plane",
        "PoolByteArray",
        "PoolColorArray",
        "PoolIntArray",
        "PoolRealArray",
        "PoolStringArray",
        "PoolVector2Array",
        "PoolVector3Array",
        "Quat",
        "RID",
        "Rect2",
        "Transform",
        "Transform2D",
        "Vector2",
        "Vector3",
    }
)

#: Decorators, markers and enums of ``godot.tags`` (plus the global enums) importable from ``godot``.
PYTHONSCRIPT_TAGS = frozenset(
    {
        "exposed",
        "export",
        "signal",
        "rpcdisabled",
        "rpcremote",
        "rpcmaster",
        "rpcpuppet",
        "rpcslave",
        "rpcremotesync",
        "rpcsync",
        "rpcmastersync",
        "rpcpuppetsync",
        "MethodRPCMode",
        "PropertyHint",
        "PropertyUsageFlag",
        "Error",
        "VariantType",
        "VariantOperator",
    }
)

#: Python types ``export`` accepts besides Godot ones.
PYTHON_EXPORT_TYPES = frozenset({"bool", "int", "float", "str"})

#: Functions that turn pythonscript's unsigned 64-bit int returns back into signed ints.
INT_NORMALISERS = frozenset({"signed_int"})

#: Object methods pythonscript defines by hand although api.json marks them vararg or virtual.
HAND_BOUND_METHODS = frozenset({"call", "free"})

#: Argument names pythonscript renames with a trailing underscore (besides Python keywords).
RENAMED_ARGUMENTS = frozenset({"char", "bool", "int", "float", "short", "type"})

#: Methods whose first argument names a property, a signal, a method or a class.
PROPERTY_NAME_METHODS = frozenset({"get", "set", "get_indexed", "set_indexed"})
SIGNAL_NAME_METHODS = frozenset({"connect", "disconnect", "is_connected", "emit_signal", "has_signal"})
#: Of those, the ones whose third argument names a method of the second (the target).
CALLBACK_METHODS = frozenset({"connect", "disconnect", "is_connected"})
METHOD_NAME_METHODS = frozenset({"call", "callv", "call_deferred", "has_method"})
CLASS_NAME_METHODS = frozenset({"is_class"})

#: Difflib ratio above which an unknown ``_name`` in an exposed class is taken for a misspelt virtual.
VIRTUAL_TYPO_CUTOFF = 0.8


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class Report:
    """Problems found, and the Godot members the check could attach to a class (its coverage)."""

    problems: List[Problem] = field(default_factory=list)
    checked: Set[Tuple[str, str]] = field(default_factory=set)

    def extend(self, other: "Report") -> None:
        self.problems.extend(other.problems)
        self.checked |= other.checked


class GodotApi:
    """api.json (a list of classes, here keyed by name) seen as pythonscript 0.50 exposes it."""

    def __init__(self, classes: Dict[str, dict]):
        self.classes = classes
        self.python_classes: Dict[str, str] = {}  # Python name -> api.json name
        self.singletons: Dict[str, str] = {}  # instance name in `godot` -> api.json class
        for name, entry in classes.items():
            if name == "GlobalConstants":
                continue
            if entry["singleton"]:
                self.singletons[entry["singleton_name"]] = name
                self.python_classes[name if name.startswith("_") else "_" + name] = name
            else:
                self.python_classes[name] = name
        self.global_constants = frozenset(classes.get("GlobalConstants", {}).get("constants", {}))

    def chain(self, cls: str) -> List[dict]:
        """The class and its ancestors up to Object."""
        entries = []
        while cls:
            entry = self.classes[cls]
            entries.append(entry)
            cls = entry["base_class"]
        return entries

    def is_subclass(self, cls: str, base: str) -> bool:
        return any(entry["name"] == base for entry in self.chain(cls))

    def method(self, cls: str, name: str) -> Optional[Tuple[str, dict]]:
        for entry in self.chain(cls):
            for method in entry["methods"]:
                if method["name"] == name:
                    return entry["name"], method
        return None

    def methods(self, cls: str) -> Dict[str, dict]:
        found: Dict[str, dict] = {}
        for entry in reversed(self.chain(cls)):
            found.update({method["name"]: method for method in entry["methods"]})
        return found

    def property(self, cls: str, name: str) -> Optional[Tuple[str, dict]]:
        for entry in self.chain(cls):
            for prop in entry["properties"]:
                if prop["name"].replace("/", "_") == name:
                    return entry["name"], prop
        return None

    def storage_property(self, cls: str, name: str) -> bool:
        """Properties kept out of api.json but reachable with ``get``, such as ``TileMap.tile_data``."""
        return self.method(cls, f"_get_{name}") is not None

    def constant(self, cls: str, name: str) -> Optional[str]:
        for entry in self.chain(cls):
            if name in entry["constants"] or any(enum["name"] == name for enum in entry["enums"]):
                return entry["name"]
        return None

    def signal(self, cls: str, name: str) -> Optional[str]:
        for entry in self.chain(cls):
            if any(signal["name"] == name for signal in entry["signals"]):
                return entry["name"]
        return None

    def object_type(self, type_name: str) -> Optional[str]:
        """The class named by an api.json type, if it is a Godot class (not int, Vector2, enum.…)."""
        if type_name in self.classes and type_name != "GlobalConstants":
            return type_name
        return None

    def member_names(self, cls: str) -> List[str]:
        names = set(self.methods(cls))
        for entry in self.chain(cls):
            names.update(prop["name"].replace("/", "_") for prop in entry["properties"])
            names.update(entry["constants"])
        return sorted(names)


@dataclass(frozen=True)
class Instance:
    """An expression holding a Godot object of class ``cls`` (``script`` for ``self``)."""

    cls: str
    script: Optional["ScriptInfo"] = None


@dataclass(frozen=True)
class ClassRef:
    """An expression naming a Godot class itself (``TileMap``)."""

    cls: str


GodotType = Union[Instance, ClassRef]


@dataclass(eq=False)
class ScriptInfo:
    """The ``@exposed`` class of a module: ``methods`` are what Godot can call, ``attributes``
    its fields and properties (exported ones included)."""

    name: str
    base: str
    methods: Dict[str, ast.FunctionDef] = field(default_factory=dict)
    attributes: Set[str] = field(default_factory=set)
    signals: Set[str] = field(default_factory=set)


def pythonscript_argument_name(name: str) -> str:
    return f"{name}_" if keyword.iskeyword(name) or name in RENAMED_ARGUMENTS else name


def method_is_bound(method: dict) -> bool:
    """Whether pythonscript 0.50 generates a Python method for this api.json method."""
    if method["name"] in HAND_BOUND_METHODS:
        return True
    return not (method["is_virtual"] or method["has_varargs"] or method["is_editor"] or method["is_reverse"])


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _suggest(name: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(candidates), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class ModuleChecker:
    """Checks one module: ``prepare`` (imports, exposed class) for every module first, then ``run``."""

    def __init__(self, api: GodotApi, path: str, tree: ast.Module, scripts: Optional[Dict[str, ScriptInfo]] = None):
        self.api = api
        self.path = path
        self.tree = tree
        self.report = Report()
        self.godot_names: Dict[str, Optional[GodotType]] = {}  # imported name -> type (None: value/tag)
        self.godot_modules: Set[str] = set()  # names bound to the `godot` module itself
        self.plain_imports: Dict[str, str] = {}  # name imported from pathing_py -> its module
        self.script_classes: Dict[str, ScriptInfo] = {}  # this module's exposed classes
        #: The exposed classes of every script checked together (shared between modules), by name.
        self.scripts: Dict[str, ScriptInfo] = {} if scripts is None else scripts

    def problem(self, node: ast.AST, message: str) -> None:
        self.report.problems.append(Problem(self.path, getattr(node, "lineno", 0), message))

    def prepare(self) -> None:
        """Read imports and the exposed class, and register it for the other modules."""
        for node in self.tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self._check_import(node)
        exposed = [node for node in self.tree.body if isinstance(node, ast.ClassDef) and self._exposed(node)]
        if not exposed:
            self.problem(
                self.tree,
                "no @exposed class: Godot cannot load this file as a script (put plain "
                "modules in a package folder holding a .gdignore)",
            )
        if len(exposed) > 1:
            self.problem(exposed[1], "pythonscript allows one @exposed class per module")
        for node in exposed:
            self.script_classes[node.name] = self._script_info(node)
        self.scripts.update(self.script_classes)

    def run(self) -> Report:
        FunctionChecker(self, self.tree.body).run()
        return self.report

    # -- imports -------------------------------------------------------------------

    def _check_import(self, node: Union[ast.Import, ast.ImportFrom]) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "godot":
                    self.godot_modules.add(alias.asname or "godot")
            return
        if node.module and node.module.split(".")[0] == "pathing_py":
            self.plain_imports.update((alias.asname or alias.name, node.module) for alias in node.names)
            return
        if node.module not in ("godot", "godot.bindings"):
            return
        for alias in node.names:
            if alias.name == "*":
                self.problem(node, "do not star-import from godot: the check needs explicit names")
                continue
            resolved = self.resolve_godot_name(alias.name, node.module, node)
            self.godot_names[alias.asname or alias.name] = resolved

    def resolve_godot_name(self, name: str, module: str, node: ast.AST) -> Optional[GodotType]:
        if name in PYTHONSCRIPT_BUILTINS or name in PYTHONSCRIPT_TAGS or name in self.api.global_constants:
            return None
        if name in self.api.singletons:
            return Instance(self.api.singletons[name])
        if name in self.api.python_classes:
            if name.startswith("_") and module == "godot":
                self.problem(node, f"import {name} from godot.bindings: `godot` re-exports no name starting with _")
            return ClassRef(self.api.python_classes[name])
        known = list(self.api.python_classes) + list(self.api.singletons) + sorted(PYTHONSCRIPT_BUILTINS)
        self.problem(node, f"{module} has no name {name!r}{_suggest(name, known)}")
        return None

    # -- the exposed class -----------------------------------------------------------

    def _exposed(self, node: ast.ClassDef) -> bool:
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if isinstance(target, ast.Name) and target.id == "exposed":
                return True
        return False

    def _script_info(self, node: ast.ClassDef) -> ScriptInfo:
        # One Godot class, last; plain Python mixins (e.g. pathing_py's NodeProperties) may come before it.
        godot_bases = [
            resolved.cls
            for resolved in (self.godot_names.get(base.id) for base in node.bases if isinstance(base, ast.Name))
            if isinstance(resolved, ClassRef)
        ]
        last = node.bases[-1] if node.bases else None
        base = (
            godot_bases[0]
            if len(godot_bases) == 1 and isinstance(last, ast.Name) and last.id in self.godot_names
            else None
        )
        if base is None:
            self.problem(node, f"@exposed class {node.name} must inherit from exactly one Godot class, its last base")
            base = "Object"
        info = ScriptInfo(node.name, base)
        mixins = [self._plain_class(base.id) for base in node.bases if isinstance(base, ast.Name)]
        for item in [item for mixin in mixins if mixin is not None for item in mixin.body] + node.body:
            if isinstance(item, ast.FunctionDef):
                if self._is_property(item):
                    info.attributes.add(item.name)
                else:
                    info.methods[item.name] = item
            elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                names = [target.id for target in targets if isinstance(target, ast.Name)]
                info.attributes.update(names)
                if self._is_call_to(item.value, "signal"):
                    info.signals.update(names)
                elif self._is_call_to(item.value, "export"):
                    self._check_export(item.value)
        for method in info.methods.values():
            for sub in ast.walk(method):
                if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                    if isinstance(sub.value, ast.Name) and sub.value.id == "self":
                        if self.api.property(base, sub.attr) is None:
                            info.attributes.add(sub.attr)
        self._check_overrides(info)
        return info

    def _plain_class(self, name: str) -> Optional[ast.ClassDef]:
        """The class ``name`` this module imports from a pathing_py module (found above the script's folder), or
        None."""
        module = self.plain_imports.get(name)
        if module is None:
            return None
        relative = Path(*module.split(".")).with_suffix(".py")
        for folder in Path(self.path).resolve().parents:
            if (folder / relative).is_file():
                tree = ast.parse((folder / relative).read_text(encoding="utf-8"))
                return next((item for item in tree.body if isinstance(item, ast.ClassDef) and item.name == name), None)
        return None

    def _is_property(self, function: ast.FunctionDef) -> bool:
        """``@property``, ``@x.setter`` or ``@export(type, …)`` (an exported property): not a method."""
        found = False
        for decorator in function.decorator_list:
            if self._is_call_to(decorator, "export"):
                self._check_export(decorator)
                found = True
            elif isinstance(decorator, ast.Name) and decorator.id == "property":
                found = True
            elif isinstance(decorator, ast.Attribute) and decorator.attr in ("setter", "getter"):
                found = True
        return found

    @staticmethod
    def _is_call_to(node: Optional[ast.AST], name: str) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name

    def _check_export(self, call: ast.Call) -> None:
        if not call.args:
            self.problem(call, "export() needs the property type as first argument")
            return
        kind = call.args[0]
        if not isinstance(kind, ast.Name):
            self.problem(call, "export() type must be a plain name (int, NodePath, …)")
        elif kind.id not in PYTHON_EXPORT_TYPES and kind.id not in PYTHONSCRIPT_BUILTINS:
            if not isinstance(self.godot_names.get(kind.id), ClassRef):
                self.problem(call, f"export() type {kind.id!r} is not a Python, builtin or Godot type")
        allowed = {"default", "hint", "usage", "hint_string", "rpc"}
        for kw in call.keywords:
            if kw.arg not in allowed:
                self.problem(call, f"export() has no argument {kw.arg!r}{_suggest(str(kw.arg), allowed)}")

    def _check_overrides(self, info: ScriptInfo) -> None:
        godot_methods = self.api.methods(info.base)
        virtuals = [name for name, method in godot_methods.items() if method["is_virtual"]]
        for name, function in info.methods.items():
            method = godot_methods.get(name)
            if method is None:
                if name.startswith("_") and not name.startswith("__"):
                    close = difflib.get_close_matches(name, virtuals, n=1, cutoff=VIRTUAL_TYPO_CUTOFF)
                    if close:
                        self.problem(
                            function,
                            f"{name} is not a virtual method of {info.base}: "
                            f"did you mean {close[0]!r}? Godot will never call {name}",
                        )
                continue
            if not method["is_virtual"]:
                self.problem(function, f"{info.name}.{name} hides the Godot method {info.base}.{name}")
                continue
            expected = len(method["arguments"])
            positional = function.args.args[1:]
            required = len(positional) - len(function.args.defaults)
            if not (required <= expected <= len(positional)) and function.args.vararg is None:
                self.problem(
                    function,
                    f"Godot calls {name} with {expected} argument(s); {info.name}.{name} takes {len(positional)}",
                )


class FunctionChecker(ast.NodeVisitor):
    """Walks statements in order, tracking the Godot class of local names."""

    def __init__(self, module: ModuleChecker, body: List[ast.stmt], scope: Optional[Dict[str, GodotType]] = None):
        self.module = module
        self.api = module.api
        self.body = body
        self.scope: Dict[str, GodotType] = dict(scope or {})
        self.declared: Dict[str, Instance] = {}  # names annotated with a Godot class in this function
        self.loop_depth = 0
        self.normalised: Set[int] = set()  # ids of calls passed straight to signed_int()

    def run(self) -> None:
        for statement in self.body:
            self.visit(statement)

    # -- scopes -----------------------------------------------------------------------

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        script = self.module.script_classes.get(node.name)
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(item, script)
            else:
                self.visit(item)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node, None)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _function(self, node: ast.FunctionDef, script: Optional[ScriptInfo]) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        scope: Dict[str, GodotType] = {}
        arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        for index, argument in enumerate(arguments):
            if script is not None and index == 0 and argument.arg == "self":
                scope["self"] = Instance(script.base, script)
            elif argument.annotation is not None:
                annotated = self.annotation_type(argument.annotation)
                if annotated is not None:
                    scope[argument.arg] = annotated
        FunctionChecker(self.module, node.body, {**self.scope, **scope}).run()

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.visit(node.body)

    # -- statements --------------------------------------------------------------------

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        value_type = self.type_of(node.value)
        for target in node.targets:
            self._bind(target, value_type)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        annotated = self.annotation_type(node.annotation)
        if annotated is not None and isinstance(node.target, ast.Name):
            self.declared[node.target.id] = annotated
        forward = isinstance(node.annotation, ast.Constant)  # "Name": a script class, maybe not checked here
        if annotated is None and node.value is not None and not forward:
            annotated = self.type_of(node.value)
        self._bind(node.target, annotated)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        if isinstance(node.target, ast.Attribute):
            self._attribute(node.target, store=True)
            self._attribute(node.target, store=False)
        elif isinstance(node.target, ast.Name):
            self._bind_name(node.target.id, None)

    def _bind(self, target: ast.expr, value_type: Optional[GodotType]) -> None:
        if isinstance(target, ast.Name):
            self._bind_name(target.id, value_type)
        elif isinstance(target, ast.Attribute):
            self._attribute(target, store=True)
        else:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    self._bind_name(name.id, None)
                elif isinstance(name, (ast.Attribute, ast.Subscript)):
                    self.visit(name)

    def _bind_name(self, name: str, value_type: Optional[GodotType]) -> None:
        """A declared class wins over the value's (the declaration is the cast); else the value's, if known."""
        bound = self.declared.get(name, value_type)
        if bound is None:
            self.scope.pop(name, None)
        else:
            self.scope[name] = bound

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        self._bind(node.target, None)
        self.loop_depth += 1
        for statement in node.body:
            self.visit(statement)
        self.loop_depth -= 1
        for statement in node.orelse:
            self.visit(statement)

    visit_AsyncFor = visit_For

    def visit_While(self, node: ast.While) -> None:
        self.loop_depth += 1
        self.visit(node.test)
        for statement in node.body:
            self.visit(statement)
        self.loop_depth -= 1
        for statement in node.orelse:
            self.visit(statement)

    def _comprehension(self, node: ast.AST, parts: List[ast.expr]) -> None:
        saved = dict(self.scope)
        for generator in node.generators:
            self.visit(generator.iter)
            self._bind(generator.target, None)
        self.loop_depth += 1
        for generator in node.generators:
            for condition in generator.ifs:
                self.visit(condition)
        for part in parts:
            self.visit(part)
        self.loop_depth -= 1
        self.scope = saved

    def visit_ListComp(self, node: ast.ListComp) -> None:
        self._comprehension(node, [node.elt])

    visit_SetComp = visit_ListComp
    visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node: ast.DictComp) -> None:
        self._comprehension(node, [node.key, node.value])

    # -- expressions ---------------------------------------------------------------------

    def annotation_type(self, node: ast.expr) -> Optional[Instance]:
        name = None
        if isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value
        resolved = self.module.godot_names.get(name) if name else None
        if isinstance(resolved, ClassRef):
            return Instance(resolved.cls)
        script = self.module.scripts.get(name) if name else None
        return Instance(script.base, script) if script is not None else None

    def type_of(self, node: ast.expr) -> Optional[GodotType]:
        """The Godot class of an expression, when the rules in the module docstring give one."""
        if isinstance(node, ast.Name):
            if node.id in self.scope:
                return self.scope[node.id]
            return self.module.godot_names.get(node.id)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in self.module.godot_modules:
                return self._godot_module_attribute(node.attr)
            owner = self.type_of(node.value)
            if isinstance(owner, Instance):
                if owner.script is not None and node.attr in owner.script.attributes:
                    return None
                found = self.api.property(owner.cls, node.attr)
                returned = self.api.object_type(found[1]["type"]) if found else None
                return Instance(returned) if returned else None
            return None
        if isinstance(node, ast.IfExp):
            branches = [self.type_of(branch) for branch in (node.body, node.orelse) if not _is_none(branch)]
            return branches[0] if len(set(branches)) == 1 else None
        if isinstance(node, ast.Call):
            func = node.func
            called = self.type_of(func) if not isinstance(func, ast.Attribute) else None
            if isinstance(called, ClassRef):
                return Instance(called.cls)
            if not isinstance(func, ast.Attribute):
                return None
            owner = self.type_of(func.value)
            if isinstance(owner, ClassRef) and func.attr == "new":
                return Instance(owner.cls)
            if not isinstance(owner, Instance):
                return None
            if owner.script is not None and func.attr in owner.script.methods:
                returns = owner.script.methods[func.attr].returns
                return self.annotation_type(returns) if returns is not None else None
            found = self.api.method(owner.cls, func.attr)
            if found is None:
                return None
            returned = self.api.object_type(found[1]["return_type"])
            return Instance(returned) if returned else None
        return None

    def _godot_module_attribute(self, name: str) -> Optional[GodotType]:
        """The type of ``godot.<name>`` after ``import godot`` (no reporting: type_of is asked often)."""
        if name in self.api.singletons:
            return Instance(self.api.singletons[name])
        if name in self.api.python_classes and not name.startswith("_"):
            return ClassRef(self.api.python_classes[name])
        return None

    def _godot_attr(self, node: ast.Attribute) -> None:
        """Report ``godot.<name>`` names that pythonscript does not provide."""
        self.module.resolve_godot_name(node.attr, "godot", node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.visit(node.value)
        self._attribute(node, store=isinstance(node.ctx, ast.Store))

    def _attribute(self, node: ast.Attribute, *, store: bool) -> None:
        if isinstance(node.value, ast.Name) and node.value.id in self.module.godot_modules:
            self._godot_attr(node)
            return
        owner = self.type_of(node.value)
        if owner is None:
            return
        name = node.attr
        if isinstance(owner, ClassRef):
            if name == "new" or self.api.constant(owner.cls, name) or self.api.method(owner.cls, name):
                self._checked(owner.cls, name)
                return
            self.module.problem(
                node,
                f"class {owner.cls} has no constant or method {name!r}"
                f"{_suggest(name, self.api.member_names(owner.cls))}",
            )
            return
        if owner.script is not None and (name in owner.script.attributes or name in owner.script.methods):
            return
        prop = self.api.property(owner.cls, name)
        if prop is not None:
            where, info = prop
            self._checked(where, name)
            if store and not info["setter"]:
                self.module.problem(node, f"{where}.{name} is read-only")
            if not store and info["type"] == "int" and id(node) not in self.normalised:
                self.module.problem(
                    node,
                    f"{where}.{name} is an int that pythonscript 0.50 gives as "
                    "unsigned 64-bit: wrap it in signed_int()",
                )
            if self.loop_depth:
                accessor = info["setter"] if store else info["getter"]
                self.module.problem(
                    node,
                    f"property syntax {name!r} on a Godot object inside a loop "
                    f"(about 50 µs a call in pythonscript 0.50): call {accessor}()",
                )
            return
        found = self.api.method(owner.cls, name)
        if found is not None:
            self._checked(found[0], name)
            if store:
                self.module.problem(node, f"cannot assign to the Godot method {found[0]}.{name}")
            return
        if self.api.constant(owner.cls, name):
            self._checked(self.api.constant(owner.cls, name), name)
            return
        what = f"{owner.script.name} (a {owner.cls})" if owner.script else owner.cls
        suggestion = _suggest(name, self.api.member_names(owner.cls))
        self.module.problem(
            node, f"{what} has no method, property or constant {name!r}{suggestion}{self._cast_hint(owner, name)}"
        )

    def _cast_hint(self, owner: Instance, name: str) -> str:
        """When a subclass has the member, the expression probably needs an annotation naming it."""
        if owner.script is not None:
            return ""
        subclasses = sorted(
            cls
            for cls in self.api.classes
            if cls != owner.cls
            and cls != "GlobalConstants"
            and self.api.is_subclass(cls, owner.cls)
            and (self.api.method(cls, name) or self.api.property(cls, name))
        )
        if not subclasses:
            return ""
        return (
            f"; {', '.join(subclasses[:3])} {'has' if len(subclasses) == 1 else 'have'} it: "
            f"annotate the name with its class (x: {subclasses[0]} = …)"
        )

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        callee = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if callee in INT_NORMALISERS:
            self.normalised.update(id(arg) for arg in node.args)
        if isinstance(func, ast.Attribute):
            self.visit(func.value)
            self._method_call(node, func)
        else:
            self.visit(func)
            self._constructor_call(node)
        for arg in node.args:
            self.visit(arg)
        for kw in node.keywords:
            self.visit(kw.value)

    def _constructor_call(self, node: ast.Call) -> None:
        called = self.type_of(node.func)
        if not isinstance(called, ClassRef):
            return
        entry = self.api.classes[called.cls]
        if not entry["instanciable"]:
            self.module.problem(node, f"{called.cls} cannot be instantiated")
        elif not entry["is_reference"]:
            self.module.problem(
                node, f"{called.cls} is not a Reference: create it with {called.cls}.new() (and free it)"
            )

    def _method_call(self, node: ast.Call, func: ast.Attribute) -> None:
        if isinstance(func.value, ast.Name) and func.value.id in self.module.godot_modules:
            self._godot_attr(func)
            return
        owner = self.type_of(func.value)
        if owner is None:
            return
        name = func.attr
        if isinstance(owner, ClassRef):
            if name == "new":
                entry = self.api.classes[owner.cls]
                if entry["is_reference"]:
                    self.module.problem(node, f"{owner.cls} is a Reference: create it with {owner.cls}()")
                elif not entry["instanciable"]:
                    self.module.problem(node, f"{owner.cls} cannot be instantiated")
                self._checked(owner.cls, "new")
                return
            found = self.api.method(owner.cls, name)
            if found is None:
                self._attribute(func, store=False)
                return
            self._check_arguments(node, found[0], found[1], extra=1)
            return
        if owner.script is not None and name in owner.script.methods:
            self._check_script_arguments(node, owner.script, name, node.args, node.keywords)
            return
        if owner.script is not None and name in owner.script.attributes:
            return
        found = self.api.method(owner.cls, name)
        if found is None:
            self._attribute(func, store=False)
            return
        where, method = found
        self._checked(where, name)
        if not method_is_bound(method):
            why = [flag for flag in ("is_virtual", "has_varargs", "is_editor", "is_reverse") if method[flag]]
            self.module.problem(
                node,
                f"pythonscript 0.50 does not bind {where}.{name} ({', '.join(why)}); "
                f"use call({name!r}, …) for vararg methods",
            )
        self._check_arguments(node, where, method)
        if method["return_type"] == "int" and id(node) not in self.normalised:
            self.module.problem(
                node,
                f"{where}.{name} returns an int that pythonscript 0.50 gives as "
                "unsigned 64-bit: wrap the call in signed_int()",
            )
        self._check_name_argument(node, node.args, owner, name)

    def _check_arguments(self, node: ast.Call, where: str, method: dict, extra: int = 0) -> None:
        """Argument count and keyword names; ``extra`` leading arguments are the object (``Cls.m(obj)``)."""
        label = f"{where}.{method['name']}"
        if any(isinstance(arg, ast.Starred) for arg in node.args) or any(kw.arg is None for kw in node.keywords):
            return  # *args / **kwargs: counts unknown
        parameters = [pythonscript_argument_name(arg["name"]) for arg in method["arguments"]]
        required = [not arg["has_default_value"] for arg in method["arguments"]]
        positional = len(node.args) - extra
        if positional > len(parameters) and not method["has_varargs"]:
            self.module.problem(node, f"{label} takes at most {len(parameters)} argument(s), {positional} given")
            return
        given = set(parameters[:positional])
        for kw in node.keywords:
            if kw.arg not in parameters:
                self.module.problem(node, f"{label} has no argument {kw.arg!r}{_suggest(kw.arg, parameters)}")
            elif kw.arg in given:
                self.module.problem(node, f"{label} got argument {kw.arg!r} twice")
            given.add(kw.arg)
        missing = [param for param, needed in zip(parameters, required) if needed and param not in given]
        if missing:
            self.module.problem(
                node,
                f"{label} needs argument(s) {', '.join(missing)} "
                f"({sum(required)} required, {positional + len(node.keywords)} given)",
            )

    def _check_script_arguments(
        self, node: ast.Call, script: ScriptInfo, name: str, args: List[ast.expr], keywords: List[ast.keyword]
    ) -> None:
        """Argument count and keyword names of a call to a script's own method (``self`` not counted)."""
        function = script.methods[name]
        if function.args.vararg or function.args.kwarg or any(isinstance(arg, ast.Starred) for arg in args):
            return
        parameters = [arg.arg for arg in function.args.args[1:]]
        required = len(parameters) - len(function.args.defaults)
        given = len(args) + len(keywords)
        for kw in keywords:
            if kw.arg not in parameters:
                self.module.problem(node, f"{script.name}.{name} has no argument {kw.arg!r}")
        if not required <= given <= len(parameters):
            expected = str(required) if required == len(parameters) else f"{required} to {len(parameters)}"
            self.module.problem(node, f"{script.name}.{name} takes {expected} argument(s), {given} given")

    def _check_name_argument(self, node: ast.Call, args: List[ast.expr], owner: Instance, method: str) -> None:
        """Names passed as strings: ``get("tile_data")``, ``connect("moved", …)``, ``call("emit_signal", "moved")``."""
        if not args or not isinstance(args[0], ast.Constant) or not isinstance(args[0].value, str):
            return
        text = args[0].value
        script = owner.script
        if method in PROPERTY_NAME_METHODS:
            known = self.api.property(owner.cls, text) or self.api.storage_property(owner.cls, text)
            if not known and not (script and text in script.attributes):
                self.module.problem(node, f"{owner.cls} has no property {text!r}")
        elif method in SIGNAL_NAME_METHODS:
            if not self.api.signal(owner.cls, text) and not (script and text in script.signals):
                self.module.problem(node, f"{owner.cls} has no signal {text!r}")
            if method in CALLBACK_METHODS and len(args) >= 3:
                self._check_callback(node, args[1], args[2])
        elif method in METHOD_NAME_METHODS:
            if not self.api.method(owner.cls, text) and not (script and text in script.methods):
                self.module.problem(node, f"{owner.cls} has no method {text!r}")
            elif method == "call" and script and text in script.methods:
                self._check_script_arguments(node, script, text, args[1:], [])
            elif method != "callv":
                self._check_name_argument(node, args[1:], owner, text)
        elif method in CLASS_NAME_METHODS:
            if text not in self.api.classes:
                self.module.problem(node, f"there is no Godot class {text!r}")

    def _check_callback(self, node: ast.Call, target: ast.expr, method: ast.expr) -> None:
        """The method a signal is connected to must exist on the target (``connect(signal, target, "method")``)."""
        owner = self.type_of(target)
        named = isinstance(method, ast.Constant) and isinstance(method.value, str)
        if not isinstance(owner, Instance) or not named:
            return
        name = method.value
        if not self.api.method(owner.cls, name) and not (owner.script and name in owner.script.methods):
            what = owner.script.name if owner.script else owner.cls
            self.module.problem(node, f"signal target {what} has no method {name!r}")

    def _checked(self, cls: str, member: str) -> None:
        self.module.report.checked.add((cls, member))


def check_source(source: str, api: GodotApi, path: str = "<string>") -> Report:
    """Check one script's source text; each problem is reported once."""
    return check_sources({path: source}, api)


def check_sources(sources: Dict[str, str], api: GodotApi) -> Report:
    """Check scripts together (path -> source text): each may name the others' exposed classes."""
    report = Report()
    scripts: Dict[str, ScriptInfo] = {}
    checkers = []
    for path, source in sources.items():
        try:
            tree = ast.parse(source, filename=path)
        except SyntaxError as error:
            report.problems.append(Problem(path, error.lineno or 0, f"syntax error: {error.msg}"))
            continue
        checker = ModuleChecker(api, path, tree, scripts)
        checker.prepare()
        checkers.append(checker)
    for checker in checkers:
        module_report = checker.run()
        module_report.problems = list(dict.fromkeys(module_report.problems))
        report.extend(module_report)
    return report


def check_files(paths: Iterable[Path], api: GodotApi) -> Report:
    return check_sources({str(path): Path(path).read_text(encoding="utf-8") for path in paths}, api)
