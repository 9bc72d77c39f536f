"""The JSON document (the issue's schema, extra fields allowed) and the table."""

from __future__ import annotations

import json

import jsonschema

from accsat.advise.report import counts, document, table

KERNEL = """
double a[64][64], b[64][64];
void f(void) {
  int i, j;
  #pragma acc parallel loop gang
  for (j = 1; j < 63; j++) {
    #pragma acc loop vector
    for (i = 1; i < 63; i++)
      b[j][i] = a[i][j] + a[j][i - 1] + a[j][i] + a[j][i + 1];
  }
}
"""

NUMBER_OR_NULL = {"type": ["number", "null"]}
ACCESS = {
    "type": "object",
    "required": [
        "file",
        "line",
        "kernel_line",
        "array",
        "access",
        "index",
        "thread_stride",
        "class",
        "lines_per_warp",
    ],
    "properties": {
        "file": {"type": "string"},
        "line": {"type": "integer"},
        "kernel_line": {"type": "integer"},
        "array": {"type": "string"},
        "access": {"enum": ["load", "store"]},
        "index": {"type": "string"},
        "thread_stride": NUMBER_OR_NULL,
        "class": {"enum": ["uniform", "coalesced", "strided", "uncoalesced", "unknown"]},
        "lines_per_warp": {"type": ["integer", "null"], "minimum": 1, "maximum": 32},
    },
}
NEIGHBOUR = {
    "type": "object",
    "required": ["file", "kernel_line", "array", "offsets", "loads", "loads_shared"],
    "properties": {
        "file": {"type": "string"},
        "kernel_line": {"type": "integer"},
        "array": {"type": "string"},
        "offsets": {"type": "array", "items": {"type": "integer"}, "minItems": 2},
        "loads": {"type": "integer", "minimum": 2},
        "loads_shared": {"type": "number"},
    },
}
SCHEMA = {
    "type": "object",
    "required": ["accesses", "neighbours"],
    "properties": {
        "accesses": {"type": "array", "items": ACCESS},
        "neighbours": {"type": "array", "items": NEIGHBOUR},
    },
}


def test_document_follows_the_schema(advise):
    doc = json.loads(json.dumps(document([advise(KERNEL)])))
    jsonschema.validate(doc, SCHEMA)
    written = [a for a in doc["accesses"] if a["stage"] == "written"]
    assert [(a["array"], a["index"], a["class"]) for a in written] == [
        ("a", "[i][j]", "uncoalesced"),
        ("a", "[j][i - 1]", "coalesced"),
        ("a", "[j][i]", "coalesced"),
        ("a", "[j][i + 1]", "coalesced"),
        ("b", "[j][i]", "coalesced"),
    ]
    assert {a["stage"] for a in doc["accesses"]} == {"written", "rewritten"}
    (group,) = [g for g in doc["neighbours"] if g["stage"] == "written"]
    assert (group["array"], group["offsets"], group["kernel_line"]) == ("a", [-1, 0, 1], 8)
    (kernel,) = doc["kernels"]
    assert kernel["thread_index"]["var"] == "i"


def test_table_and_counts(advise):
    found = advise(KERNEL, rewritten=False)
    text = table([found])
    assert "thread index i" in text and "uncoalesced" in text
    assert "a loop interchange making j the vector loop" in text
    assert "offsets -1,0,+1 along the lanes of i" in text
    c = counts([found])
    assert (c["coalesced"], c["uncoalesced"], c["groups_thread"], c["kernels"]) == (4, 1, 1, 1)


def test_unanalysed_kernel_is_said_so(advise):
    found = advise("""
double a[8];
void f(void) {
  int i;
  #pragma acc parallel loop
  for (i = 0; i < 8; i++) { if (i) goto out; a[i] = 1.0; out: ; }
}
""")
    assert "not analysed: 'goto' statement" in table([found])
    assert counts([found])["not_analysed"] == 1
