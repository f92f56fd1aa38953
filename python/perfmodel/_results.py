"""Result objects: the CLI's ``--format json`` of the same call, read as attributes.

Every result keeps the JSON text the library rendered (the same text ``perfmodel <command>
--format json`` prints for the same arguments) and parses it on first use: ``to_dict()`` is
that JSON as Python objects, each top-level field is an attribute (nested objects too:
``p.totals.predicted_seconds``), and ``to_pandas()`` gives the result's table as a DataFrame
where pandas is installed.
"""
import json


class Record:
    """A JSON object read as attributes (``r.name``) or items (``r["name"]``)."""

    __slots__ = ("_d",)

    def __init__(self, d):
        object.__setattr__(self, "_d", d)

    def __getattr__(self, name):
        try:
            return _wrap(self._d[name])
        except KeyError:
            raise AttributeError(
                f"no field {name!r}; the fields are: {', '.join(self._d)}") from None

    def __getitem__(self, name):
        return _wrap(self._d[name])

    def __contains__(self, name):
        return name in self._d

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __dir__(self):
        return sorted(set(self._d) | {"to_dict", "keys"})

    def keys(self):
        return self._d.keys()

    def to_dict(self):
        return json.loads(json.dumps(self._d))

    def __eq__(self, other):
        return isinstance(other, Record) and self._d == other._d

    def __repr__(self):
        return f"Record({self._d!r})"


def _wrap(v):
    if isinstance(v, dict):
        return Record(v)
    if isinstance(v, list):
        return [_wrap(x) for x in v]
    return v


class Result:
    """A command's result. ``schema`` names the JSON contract (docs/formats.md)."""

    #: The field holding the result's table (``to_pandas()``), by subclass.
    _table = None

    def __init__(self, text):
        self._text = text
        self._data = None

    def _d(self):
        if self._data is None:
            self._data = json.loads(self._text)
        return self._data

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        d = self._d()
        if name in d:
            return _wrap(d[name])
        raise AttributeError(
            f"{type(self).__name__} has no field {name!r}; the fields are: {', '.join(d)}")

    def __getitem__(self, name):
        return _wrap(self._d()[name])

    def __contains__(self, name):
        return name in self._d()

    def __dir__(self):
        return sorted(set(self._d()) | {"to_dict", "to_json", "to_pandas"})

    def keys(self):
        return self._d().keys()

    def to_dict(self):
        """The CLI's ``--format json`` output for the same arguments, as Python objects."""
        return json.loads(self._text)

    def to_json(self):
        """The CLI's ``--format json`` text for the same arguments."""
        return self._text

    def to_pandas(self, table=None):
        """The result's table (``table``: another list field) as a pandas DataFrame."""
        try:
            import pandas
        except ImportError:
            raise ImportError(
                "to_pandas() needs pandas (python3-pandas or pip install pandas); "
                "to_dict() gives the same data without it") from None
        name = table or self._table_name()
        rows = self._d().get(name)
        if not isinstance(rows, list):
            lists = [k for k, v in self._d().items() if isinstance(v, list)]
            raise ValueError(f"{type(self).__name__} has no table {name!r}; "
                             f"its tables are: {', '.join(lists) or 'none'}")
        return pandas.DataFrame(rows)

    def _table_name(self):
        return self._table

    def __repr__(self):
        d = self._d()
        return f"<perfmodel.{type(self).__name__} {d.get('schema', '')}>"


class Prediction(Result):
    """``perfmodel predict``: per-layer costs, totals, rollups and profile (layers table)."""
    _table = "layers"

    def __repr__(self):
        d = self._d()
        t = d.get("totals", {})
        return (f"<perfmodel.Prediction {d.get('model', {}).get('name')} on "
                f"{d.get('hardware', {}).get('name')}: "
                f"{t.get('predicted_seconds', float('nan')) * 1e3:.4g} ms>")


class Sweep(Result):
    """``perfmodel sweep``: one row per point (points table)."""
    _table = "points"


class Trace(Result):
    """``perfmodel trace``: the views asked for (the first present of attainment, operators,
    kernels is the default table)."""

    def _table_name(self):
        for name in ("attainment", "operators", "kernels"):
            if name in self._d():
                return name
        return "operators"


class Kernels(Result):
    """``perfmodel kernels``: each kernel run predicted and compared (rows table)."""
    _table = "rows"


class Llm(Result):
    """``perfmodel llm``: memory, TTFT, TPOT, tokens/s (the decode steps' table, where the
    JSON has one)."""

    def _table_name(self):
        d = self._d()
        for name, v in d.items():
            if isinstance(v, list):
                return name
        return "layers"


class Hardware(Result):
    """``perfmodel info --hw``: compute ceilings, memory levels, ridge points."""

    def _table_name(self):
        for name, v in self._d().items():
            if isinstance(v, list):
                return name
        return "compute"


class Listing(Result):
    """``perfmodel list``: one item per shipped spec or model; iterates over the names."""
    _table = "items"

    @property
    def names(self):
        return [item["name"] for item in self._d()["items"]]

    def __iter__(self):
        return iter(self.names)

    def __len__(self):
        return len(self._d()["items"])

    def __contains__(self, name):
        return name in self.names
