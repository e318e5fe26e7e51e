"""Diagrams drawn from a chapter's `--analyze --format json` output: the picture is the code's own
index math, replayed on the CPU, never drawn by hand.

An analysis document is a JSON object with a field "analysis" that names its kind. Each kind is a
module here that registers itself in DRAWERS with:
  - figures(document) -> list of figure names the document can draw;
  - default_title(document, figure) -> str;
  - draw(document, figure, title, subtitle) -> matplotlib figure.
"""
from ..report import ReportError

DRAWERS = {}


def require(mapping, name: str, where: str, program: str = ""):
    """mapping[name], or a ReportError saying that @p where lacks it and that the document is not the
    `--analyze --format json` output of @p program (`chapter_03_merge`; "" names no program)."""
    if not isinstance(mapping, dict) or name not in mapping:
        of = f"{program} " if program else ""
        raise ReportError(f"{where} has no '{name}': not the output of {of}--analyze --format json")
    return mapping[name]


def register(kind: str, module) -> None:
    """Make `tools/plot analysis` draw documents whose "analysis" field is `kind` with `module`."""
    DRAWERS[kind] = module


def drawer(document: dict):
    """The module that draws `document`, or a ReportError naming the kinds there are."""
    kind = document.get("analysis") if isinstance(document, dict) else None
    _load_all()
    if kind not in DRAWERS:
        known = ", ".join(sorted(DRAWERS)) or "none"
        raise ReportError(f"not an --analyze document this tool draws (its 'analysis' is {kind!r}; known: {known})")
    return DRAWERS[kind]


def _load_all() -> None:
    """Import every drawer module of this package, so that each registers itself."""
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
