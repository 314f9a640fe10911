"""Fill the attributes a TF.js graph left out, from TensorFlow's own op registry.

Run only inside set-up's throwaway converter environment (it imports TensorFlow):
`python tfjs_attrs.py model.json out.json`. TF.js's converter drops attributes it does not
need, but TensorFlow 2.15 (which tf2onnx uses to read the graph) refuses a node without
them: `_FusedConv2D` needs `TArgs` (one type per fused argument) and `TopKV2` gained
`index_type`. Every missing attribute with a registered default gets that default; `TArgs`
is the node's `T` repeated `num_args` times. Nothing else in the graph changes.
"""
from __future__ import annotations

import json
import sys


def fill_missing_attrs(model: dict) -> dict[str, set[str]]:
    """Fill in place; returns {op: attributes filled} (what a reader of the log wants)."""
    from google.protobuf import json_format
    from tensorflow.python.framework import op_def_registry

    filled: dict[str, set[str]] = {}
    for node in model["modelTopology"]["node"]:
        op_def = op_def_registry.get(node["op"])
        if op_def is None:
            continue
        attrs = node.setdefault("attr", {})
        for spec in op_def.attr:
            if spec.name in attrs:
                continue
            if spec.name == "TArgs" and "T" in attrs and "num_args" in attrs:
                attrs["TArgs"] = {"list": {"type": [attrs["T"]["type"]] * int(attrs["num_args"]["i"])}}
            elif spec.HasField("default_value"):
                attrs[spec.name] = json_format.MessageToDict(spec.default_value)
            else:
                continue
            filled.setdefault(node["op"], set()).add(spec.name)
    return filled


def main(argv: list[str]) -> int:
    source, target = argv
    with open(source) as handle:
        model = json.load(handle)
    filled = fill_missing_attrs(model)
    with open(target, "w") as handle:
        json.dump(model, handle)
    print({op: sorted(names) for op, names in filled.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
