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

    #: The fields that may hold the result's table (``to_pandas()``), the first present wins.
    _table = ("layers",)
    _no_table_hint = ""

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
        """The result's table as a pandas DataFrame, one row per entry. ``table`` names another
        list field, nested ones with dots ("prefill_layers.layers")."""
        try:
            import pandas
        except ImportError:
            raise ImportError(
                "to_pandas() needs pandas (python3-pandas or pip install pandas); "
                "to_dict() gives the same data without it") from None
        name = table or self._table_name()
        rows = self._d()
        for part in name.split("."):
            rows = rows.get(part) if isinstance(rows, dict) else None
        if not isinstance(rows, list):
            raise ValueError(f"{type(self).__name__} has no table {name!r}; its tables are: "
                             f"{', '.join(self._tables()) or 'none'}{self._no_table_hint}")
        return pandas.DataFrame(rows)

    def _tables(self):
        """The list fields, nested ones with dots."""
        found = []

        def walk(d, prefix):
            for k, v in d.items():
                if isinstance(v, list) and (not v or isinstance(v[0], dict)):
                    found.append(prefix + k)
                elif isinstance(v, dict):
                    walk(v, prefix + k + ".")
        walk(self._d(), "")
        return found

    def _table_name(self):
        for name in self._table:
            head = name.split(".")[0]
            if head in self._d():
                return name
        return self._table[0]

    def __repr__(self):
        d = self._d()
        return f"<perfmodel.{type(self).__name__} {d.get('schema', '')}>"


class Prediction(Result):
    """``perfmodel predict``: per-layer costs, totals, rollups and profile (layers table)."""
    _table = ("layers",)

    def __repr__(self):
        d = self._d()
        t = d.get("totals", {})
        return (f"<perfmodel.Prediction {d.get('model', {}).get('name')} on "
                f"{d.get('hardware', {}).get('name')}: "
                f"{t.get('predicted_seconds', float('nan')) * 1e3:.4g} ms>")


class Sweep(Result):
    """``perfmodel sweep``: one row per point (points table)."""
    _table = ("points",)


class Trace(Result):
    """``perfmodel trace``: the views asked for (the first present of attainment, operators,
    kernels is the default table)."""
    _table = ("attainment", "operators", "kernels")


class Kernels(Result):
    """``perfmodel kernels``: each kernel run predicted and compared (rows table)."""
    _table = ("rows",)


class Llm(Result):
    """``perfmodel llm``: memory, TTFT, TPOT, tokens/s; with per_layer=True the prefill's
    layer table (the default table) and the last decode step's ("decode_layers.layers")."""
    _table = ("prefill_layers.layers",)
    _no_table_hint = " (perfmodel.llm(..., per_layer=True) adds the layer tables)"


class Hardware(Result):
    """``perfmodel info --hw``: compute ceilings (the default table) and memory levels
    ("memory")."""
    _table = ("compute",)


class Listing(Result):
    """``perfmodel list``: one item per shipped spec or model; iterates over the names."""
    _table = ("items",)

    @property
    def names(self):
        return [item["name"] for item in self._d()["items"]]

    def __iter__(self):
        return iter(self.names)

    def __len__(self):
        return len(self._d()["items"])

    def __contains__(self, name):
        return name in self.names
