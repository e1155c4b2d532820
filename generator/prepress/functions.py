"""PDF functions (PDF 1.7, 7.10), evaluated so that the preflight can measure the ink of what they colour: a
gradient's colours (a shading's /Function) and a spot colour's CMYK alternate (a Separation's or DeviceN's tint
transform).

Every kind is evaluated, each within bounds, so that a hostile file costs a bounded time: sampled (type 0, of any
number of inputs, multilinear between samples, at most MAX_SAMPLES values read), exponential (2), stitching (3,
at most MAX_DEPTH deep), PostScript calculator (4: a small interpreter of the operators the language has, Table
42; it has no loop, so a program runs each of its at most MAX_PROGRAM bytes once; its stack is held to the 100
entries of the language's limit, Annex C). What cannot be evaluated (a broken or too large function) raises
Unmeasured, which the preflight says rather than taking as no ink.

`evaluate_many` evaluates a function of every kind over many inputs at once (numpy, the same arithmetic; a
PostScript program's if and ifelse by running each procedure on the inputs that choose it), for a spot-colour
picture of more colours than are evaluated one by one.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from typing import Any

from generator.i18n import phrase

#: The most values of a sampled function (type 0) read: a gradient's table is some hundreds of samples (256 in
#: Illustrator's and Ghostscript's), a tint transform of four inks 17^4 x 4 (some 334 000); a larger table is
#: not evaluated (said).
MAX_SAMPLES = 1 << 20
#: The most inputs of a sampled function: the corners interpolated between are 2^inputs (DeviceN allows 32 inks,
#: designers' files hold a few).
MAX_INPUTS = 8
#: The longest PostScript calculator program read, in bytes: a tint transform of a few inks is some hundreds.
MAX_PROGRAM = 65536
#: How deep functions may nest (stitching functions of stitching functions): any real one is one or two deep.
MAX_DEPTH = 8
#: The PostScript calculator's stack limit (PDF 1.7, Annex C: "operand stack ... 100").
MAX_STACK = 100


class Unmeasured(Exception):
    """A function the preflight does not evaluate: broken, of an unknown type, or beyond a bound above."""


def evaluate(function: Any, inputs: list[float], depth: int = 0) -> list[float]:
    """`function` (a PDF function object) at `inputs`: inputs clipped to its /Domain, outputs to its /Range."""
    if depth > MAX_DEPTH:
        raise Unmeasured
    function = function.get_object()
    kind = int(function.get("/FunctionType", -1))
    domain = [float(v) for v in function.get("/Domain", ())]
    if len(domain) < 2 * len(inputs):
        raise Unmeasured
    x = [min(max(v, min(domain[2 * i], domain[2 * i + 1])), max(domain[2 * i], domain[2 * i + 1]))
         for i, v in enumerate(inputs)]
    if kind == 0:
        out = _sampled(function, x, domain)
    elif kind == 2 and len(x) == 1:
        c0 = [float(v) for v in function.get("/C0", (0.0,))]
        c1 = [float(v) for v in function.get("/C1", (1.0,))]
        power = x[0] ** float(function.get("/N", 1))
        out = [a + power * (b - a) for a, b in zip(c0, c1)]
    elif kind == 3 and len(x) == 1:
        out = _stitching(function, x[0], domain, depth)
    elif kind == 4:
        out = _calculator(function, x)
    else:
        raise Unmeasured
    ranges = [float(v) for v in function.get("/Range", ())]
    if ranges:
        out = [min(max(v, ranges[2 * i]), ranges[2 * i + 1]) if 2 * i + 1 < len(ranges) else v
               for i, v in enumerate(out)]
    return out


def evaluate_all(functions: Any, inputs: list[float]) -> list[float]:
    """A colour given by one function of n outputs, or by an array of n functions of one output each (a shading's
    /Function, PDF 1.7, 8.7.4.5)."""
    functions = functions.get_object()
    if isinstance(functions, list):
        return [evaluate(f, inputs)[0] for f in functions]
    return evaluate(functions, inputs)


def _stitching(function: Any, t: float, domain: list[float], depth: int) -> list[float]:
    bounds = [float(b) for b in function.get("/Bounds", ())]
    parts = function["/Functions"]
    k = next((i for i, b in enumerate(bounds) if t < b), len(bounds))
    low = domain[0] if k == 0 else bounds[k - 1]
    high = domain[1] if k == len(bounds) else bounds[k]
    encode = [float(v) for v in function.get("/Encode", [0, 1] * len(parts))]
    e0, e1 = encode[2 * k], encode[2 * k + 1]
    return evaluate(parts[k], [e0 + (t - low) * (e1 - e0) / (high - low) if high > low else e0], depth + 1)


def _table(function: Any, inputs: int) -> tuple[list[int], int, list[float], int, int, bytes, list[float]]:
    """What a sampled function (7.10.2) of `inputs` inputs says of its table: its /Size, /BitsPerSample, /Decode (else
    /Range), its outputs, how many samples it holds, its bytes and its /Encode; Unmeasured when the table is beyond
    what is measured (MAX_INPUTS, MAX_SAMPLES) or shorter than it says."""
    sizes = [int(v) for v in function["/Size"]]
    bits = int(function["/BitsPerSample"])
    ranges = [float(v) for v in function["/Range"]]
    decode = [float(v) for v in function.get("/Decode", ranges)]
    outputs = len(ranges) // 2
    count = outputs * math.prod(sizes)
    if len(sizes) != inputs or not 0 < inputs <= MAX_INPUTS or bits not in (1, 2, 4, 8, 12, 16, 24, 32) \
            or min(sizes) < 1 or not 0 < count <= MAX_SAMPLES:
        raise Unmeasured
    data = bytes(function.get_data())
    if len(data) * 8 < count * bits:
        raise Unmeasured
    encode = [float(v) for v in function.get("/Encode", [v for s in sizes for v in (0, s - 1)])]
    return sizes, bits, decode, outputs, count, data, encode


def _sampled(function: Any, x: list[float], domain: list[float]) -> list[float]:
    """A sampled function (7.10.2): each input encoded into its table's index range, the outputs interpolated
    multilinearly between the 2^m samples around it, decoded to /Decode (else /Range). A table of /Order 3, which
    PDF interpolates by a cubic spline, is read linearly as well: at its samples the same, between them within what
    a spline's overshoot adds (not measured)."""
    sizes, bits, decode, outputs, count, data, encode = _table(function, len(x))
    low_index, fractions = [], []
    for i, v in enumerate(x):
        d0, d1 = domain[2 * i], domain[2 * i + 1]
        e = encode[2 * i] + (v - d0) * (encode[2 * i + 1] - encode[2 * i]) / (d1 - d0) if d1 != d0 else encode[2 * i]
        e = min(max(e, 0.0), sizes[i] - 1.0)
        below = min(int(e), sizes[i] - 2) if sizes[i] > 1 else 0
        low_index.append(below)
        fractions.append(e - below if sizes[i] > 1 else 0.0)
    top = (1 << bits) - 1

    def sample(index: int) -> float:
        at = index * bits
        first, last = at // 8, (at + bits - 1) // 8
        word: int = int.from_bytes(bytes(data[first:last + 1]), "big")
        return float((word >> ((last + 1) * 8 - at - bits)) & top) / top

    found = []
    for out in range(outputs):
        value = 0.0
        for corner in range(2 ** len(x)):
            weight, index, stride = 1.0, 0, 1
            for i in range(len(x)):
                up = corner >> i & 1
                weight *= fractions[i] if up else 1.0 - fractions[i]
                index += (low_index[i] + up) * stride
                stride *= sizes[i]
            if weight:
                value += weight * sample(index * outputs + out)
        d0, d1 = decode[2 * out], decode[2 * out + 1]
        found.append(d0 + value * (d1 - d0))
    return found


#: A PostScript calculator program's tokens: braces, numbers (integers and reals, as the language writes them) and
#: operators.
_TOKEN = re.compile(rb"\s*(?:(?P<brace>[{}])|(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                    rb"|(?P<word>[a-z]+)|(?P<other>\S))")
Program = list[Any]  # numbers, operator names and nested programs (the bodies of if and ifelse)


def _parse(text: bytes) -> Program:
    """The program `{ ... }` as nested lists; anything outside the language raises Unmeasured."""
    stack: list[Program] = [[]]
    position = 0
    while position < len(text):
        found = _TOKEN.match(text, position)
        if found is None:
            break  # only white space is left
        position = found.end()
        if found["brace"] == b"{":
            stack.append([])
        elif found["brace"] == b"}":
            if len(stack) < 2:
                raise Unmeasured
            inner = stack.pop()
            stack[-1].append(inner)
        elif found["number"] is not None:
            number = found["number"].decode()
            stack[-1].append(float(number) if any(c in number for c in ".eE") else int(number))
        elif found["word"] is not None and found["word"].decode() in _OPERATORS:
            stack[-1].append(found["word"].decode())
        else:
            raise Unmeasured
    if len(stack) != 1 or len(stack[0]) != 1 or not isinstance(stack[0][0], list):
        raise Unmeasured
    program: Program = stack[0][0]
    return program


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Unmeasured
    return value


def _integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unmeasured
    return value


def _arithmetic(stack: list[Any], name: str) -> None:
    if name in _UNARY:
        stack.append(_UNARY[name](_number(stack.pop())))
        return
    b, a = stack.pop(), stack.pop()
    if name in ("and", "or", "xor"):
        if isinstance(a, bool) and isinstance(b, bool):
            stack.append({"and": a and b, "or": a or b, "xor": a != b}[name])
        else:
            stack.append({"and": _integer(a) & _integer(b), "or": _integer(a) | _integer(b),
                          "xor": _integer(a) ^ _integer(b)}[name])
    elif name in ("eq", "ne"):
        stack.append((a == b) == (name == "eq"))
    elif name in _COMPARE:
        stack.append(_COMPARE[name](_number(a), _number(b)))
    elif name in ("idiv", "mod", "bitshift"):
        x, y = _integer(a), _integer(b)
        if name == "bitshift":
            stack.append(x << y if 0 <= y < 32 else x >> -y if -32 < y < 0 else 0 if y else x)
        elif y == 0:
            raise Unmeasured
        else:
            quotient = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)  # truncated towards zero
            stack.append(quotient if name == "idiv" else x - quotient * y)
    else:
        x2, y2 = _number(a), _number(b)
        if name == "div" and y2 == 0:
            raise Unmeasured
        # only the operator's own result computed: `0 -1 add` is -1, though 0 ** -1 has none
        # only the operator's own result computed: `0 -1 add` is -1, though 0 ** -1 has none
        operations: dict[str, Callable[[], Any]] = {
            "add": lambda: x2 + y2, "sub": lambda: x2 - y2, "mul": lambda: x2 * y2, "div": lambda: x2 / y2,
            "exp": lambda: float(x2) ** float(y2), "atan": lambda: math.degrees(math.atan2(x2, y2)) % 360.0}
        value = operations[name]()
        if isinstance(value, complex) or (isinstance(value, float) and not math.isfinite(value)):
            raise Unmeasured
        integers = name in ("add", "sub", "mul") and isinstance(a, int) and isinstance(b, int)
        stack.append(int(value) if integers else float(value))


_UNARY: dict[str, Callable[[float], Any]] = {
    "abs": abs, "neg": lambda v: -v, "ceiling": lambda v: float(math.ceil(v)) if isinstance(v, float) else v,
    "floor": lambda v: float(math.floor(v)) if isinstance(v, float) else v,
    "round": lambda v: float(math.floor(v + 0.5)) if isinstance(v, float) else v,
    "truncate": lambda v: float(math.trunc(v)) if isinstance(v, float) else v,
    "sqrt": lambda v: math.sqrt(v), "sin": lambda v: math.sin(math.radians(v)),
    "cos": lambda v: math.cos(math.radians(v)), "ln": lambda v: math.log(v), "log": lambda v: math.log10(v),
    "cvi": lambda v: int(v), "cvr": float}
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "ge": lambda a, b: a >= b, "gt": lambda a, b: a > b, "le": lambda a, b: a <= b, "lt": lambda a, b: a < b}
#: The operators of the PostScript calculator (PDF 1.7, Table 42).
_OPERATORS = frozenset({*_UNARY, *_COMPARE, "add", "sub", "mul", "div", "idiv", "mod", "exp", "atan", "and", "or",
                        "xor", "not", "bitshift", "eq", "ne", "true", "false", "if", "ifelse", "copy", "dup",
                        "exch", "index", "pop", "roll"})


def _run(program: Program, stack: list[Any]) -> None:
    for item in program:
        if len(stack) > MAX_STACK:
            raise Unmeasured
        if not isinstance(item, str):
            stack.append(item)
        elif item in ("true", "false"):
            stack.append(item == "true")
        elif item == "not":
            value = stack.pop()
            stack.append(not value if isinstance(value, bool) else ~_integer(value))
        elif item == "dup":
            stack.append(stack[-1])
        elif item == "pop":
            stack.pop()
        elif item == "exch":
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif item == "copy":
            n = _integer(stack.pop())
            if not 0 <= n <= len(stack):
                raise Unmeasured
            stack.extend(stack[len(stack) - n:])
        elif item == "index":
            n = _integer(stack.pop())
            if not 0 <= n < len(stack):
                raise Unmeasured
            stack.append(stack[-1 - n])
        elif item == "roll":
            j, n = _integer(stack.pop()), _integer(stack.pop())
            if not 0 <= n <= len(stack):
                raise Unmeasured
            if n:
                top = stack[len(stack) - n:]
                j %= n
                stack[len(stack) - n:] = top[n - j:] + top[:n - j]
        elif item in ("if", "ifelse"):
            bodies = [stack.pop() for _ in range(1 if item == "if" else 2)][::-1]
            condition = stack.pop()
            if not isinstance(condition, bool) or not all(isinstance(b, list) for b in bodies):
                raise Unmeasured
            chosen = bodies[0] if condition else bodies[1] if item == "ifelse" else None
            if chosen is not None:
                _run(chosen, stack)
        else:
            _arithmetic(stack, item)


def _calculator(function: Any, x: list[float]) -> list[float]:
    """A PostScript calculator function (7.10.5): its program run on the inputs; its outputs the numbers left on
    the stack, as many as /Range says."""
    ranges = function.get("/Range", ())
    text = function.get_data()
    if not ranges or len(text) > MAX_PROGRAM:
        raise Unmeasured
    stack: list[Any] = list(x)
    try:
        _run(_parse(text), stack)
    except (IndexError, ValueError, OverflowError, ZeroDivisionError, TypeError, RecursionError):
        raise Unmeasured from None
    outputs = len(ranges) // 2
    if len(stack) < outputs:
        raise Unmeasured
    return [float(_number(v)) for v in stack[len(stack) - outputs:]]


#: The most work evaluate_many does for one call: its inputs times what the function costs at one (cost), in
#: numpy's operations on one number (some nanoseconds each): 2^30 of them, some seconds at most. A picture's spot
#: colours, 65,536 tints through a program of some tens of operators, are some 2^22.
MAX_WORK = 1 << 30
#: What one of Python's math functions costs, in those operations: each is computed number by number (_python, some
#: 0.15 microseconds a number, where numpy takes about one nanosecond).
PYTHON_OPERATION = 100
#: The operators of the calculator computed through Python's math, number by number.
PYTHON_OPERATORS = frozenset({"sqrt", "sin", "cos", "ln", "log", "exp", "atan"})
#: How many inputs evaluate_many evaluates at a time, so that its memory stays bounded whatever the number of
#: inputs: a PostScript program's stack holds at most MAX_STACK arrays of this many numbers (some 50 MB).
ROWS_AT_ONCE = 1 << 16


def evaluate_many(function: Any, inputs: Any) -> Any:
    """`function` at many inputs at once (a numpy array of one row of inputs each): the outputs, one row each, by the
    same arithmetic as `evaluate`, in numpy's float64 (so the same figures, bar the last bit of an exponential
    function's power): sampled (0, _sampled_many), exponential (2), stitching (3) and PostScript calculator (4,
    _calculator_many) functions, ROWS_AT_ONCE inputs at a time. Raises Unmeasured where `evaluate` would for any
    input, for a program that cannot be run for all inputs at once (_calculator_many), and past MAX_WORK: each then
    evaluated input by input, or said not measured."""
    import numpy as np

    cost(function, MAX_WORK // max(1, len(inputs)))
    parts = [_many(function, inputs[start:start + ROWS_AT_ONCE]) for start in range(0, len(inputs), ROWS_AT_ONCE)]
    return np.concatenate(parts) if len(parts) != 1 else parts[0]


def cost(function: Any, limit: int, depth: int = 0) -> int:
    """About what evaluating `function` at one input costs evaluate_many, in numpy's operations on one number (a
    sampled function: each corner's weight, index and samples; a PostScript program: each of its operators, a
    procedure's included, as each runs once at most; Python's math at PYTHON_OPERATION). Raises Unmeasured past
    `limit`, or for a function evaluate_many does not evaluate, before any of it is evaluated."""
    if depth > MAX_DEPTH:
        raise Unmeasured
    function = function.get_object()
    kind = int(function.get("/FunctionType", -1))
    found: int
    if kind == 0:
        inputs, outputs = len(function.get("/Size", ())), len(function.get("/Range", ())) // 2
        found = 2 ** min(inputs, MAX_INPUTS + 1) * (3 * inputs + 2 * outputs) + 4 * inputs
    elif kind == 2:
        found = 3 * len(function.get("/C0", (0.0,))) + 2
    elif kind == 3:
        found = 4
        for part in function.get("/Functions", ()):
            found += cost(part, limit - found, depth + 1)
    elif kind == 4:
        text = function.get_data()
        if len(text) > MAX_PROGRAM:
            raise Unmeasured
        found, bodies = 0, [_parse(text)]
        while bodies:  # (each procedure in turn, not by recursion: a hostile one nests thousands deep)
            for item in bodies.pop():
                if isinstance(item, list):
                    bodies.append(item)
                found += PYTHON_OPERATION if isinstance(item, str) and item in PYTHON_OPERATORS else 3
    else:
        raise Unmeasured(phrase("a function of type {kind}, evaluated colour by colour", kind=kind))
    if found > limit:
        raise Unmeasured(phrase("a function too long to evaluate at once for {n} inputs", n=MAX_WORK // max(1, limit)))
    return found


def _many(function: Any, inputs: Any, depth: int = 0) -> Any:
    """evaluate_many's work, at any number of inputs."""
    import numpy as np

    if depth > MAX_DEPTH:
        raise Unmeasured
    function = function.get_object()
    kind = int(function.get("/FunctionType", -1))
    domain = [float(v) for v in function.get("/Domain", ())]
    if inputs.ndim != 2 or len(domain) < 2 * inputs.shape[1] or kind not in (0, 2, 3, 4) \
            or (kind in (2, 3) and inputs.shape[1] != 1):
        raise Unmeasured(phrase("a function of type {kind} of {n} inputs, evaluated colour by colour", kind=kind,
                                n=int(inputs.shape[-1])))
    x = np.stack([np.clip(inputs[:, i], min(domain[2 * i], domain[2 * i + 1]),
                          max(domain[2 * i], domain[2 * i + 1])) for i in range(inputs.shape[1])], axis=1)
    if kind == 0:
        out = _sampled_many(function, x, domain)
    elif kind == 2:
        c0 = [float(v) for v in function.get("/C0", (0.0,))]
        c1 = [float(v) for v in function.get("/C1", (1.0,))]
        power = x[:, 0] ** float(function.get("/N", 1))
        out = np.stack([a + power * (b - a) for a, b in zip(c0, c1)], axis=1)
    elif kind == 3:
        out = _stitching_many(function, x[:, 0], domain, depth)
    else:
        out = _calculator_many(function, x)
    ranges = [float(v) for v in function.get("/Range", ())]
    for i in range(min(out.shape[1], len(ranges) // 2)):
        out[:, i] = np.minimum(np.maximum(out[:, i], ranges[2 * i]), ranges[2 * i + 1])
    return out


def _stitching_many(function: Any, x: Any, domain: list[float], depth: int) -> Any:
    """A stitching function (type 3) at many inputs (already within its domain): each input to its piece as
    _stitching does, every piece evaluated once over its inputs."""
    import numpy as np

    bounds = [float(b) for b in function.get("/Bounds", ())]
    parts = function["/Functions"]
    encode = [float(v) for v in function.get("/Encode", [0, 1] * len(parts))]
    # each input's piece: the first bound it is below (as _stitching's `t < b`), else the last piece
    piece = np.searchsorted(np.array(bounds), x, side="right") if bounds else np.zeros(len(x), dtype=int)
    out: Any = None
    for k in range(len(bounds) + 1):
        chosen = piece == k
        if not chosen.any():
            continue
        low = domain[0] if k == 0 else bounds[k - 1]
        high = domain[1] if k == len(bounds) else bounds[k]
        e0, e1 = encode[2 * k], encode[2 * k + 1]
        t = x[chosen]
        inner = e0 + (t - low) * (e1 - e0) / (high - low) if high > low else np.full(len(t), e0)
        values = _many(parts[k], inner[:, None], depth + 1)
        if out is None:
            out = np.zeros((len(x), values.shape[1]))
        if values.shape[1] != out.shape[1]:
            raise Unmeasured(phrase("a stitching function whose pieces give different numbers of outputs"))
        out[chosen] = values
    if out is None:
        raise Unmeasured
    return out


def _sampled_many(function: Any, x: Any, domain: list[float]) -> Any:
    """A sampled function (type 0) at many inputs (rows of x, already within its domain): _sampled's arithmetic,
    operation for operation in the same order (each input encoded, held to its table, the 2^m samples around it
    weighted corner by corner, decoded), on numpy's float64, so each output is the one _sampled gives to the last
    bit. Like _sampled it interpolates linearly whatever /Order says (an /Order 3 table is read as /Order 1)."""
    import numpy as np

    sizes, bits, decode, outputs, count, data, encode = _table(function, x.shape[1])
    table = _sample_table(data, count, bits)
    rows = x.shape[0]
    low_index, fractions = [], []
    for i in range(x.shape[1]):
        d0, d1 = domain[2 * i], domain[2 * i + 1]
        e = encode[2 * i] + (x[:, i] - d0) * (encode[2 * i + 1] - encode[2 * i]) / (d1 - d0) if d1 != d0 \
            else np.full(rows, encode[2 * i])
        e = np.minimum(np.maximum(e, 0.0), sizes[i] - 1.0)
        # (e >= 0, so _sampled's int(e) is its floor)
        below = np.minimum(np.floor(e), sizes[i] - 2) if sizes[i] > 1 else np.zeros(rows)
        low_index.append(below.astype(np.int64))
        fractions.append(e - below if sizes[i] > 1 else np.zeros(rows))
    values = [np.zeros(rows) for _ in range(outputs)]
    for corner in range(2 ** x.shape[1]):
        weight, index, stride = np.ones(rows), np.zeros(rows, dtype=np.int64), 1
        for i in range(x.shape[1]):
            up = corner >> i & 1
            weight = weight * (fractions[i] if up else 1.0 - fractions[i])
            index = index + (low_index[i] + up) * stride
            stride *= sizes[i]
        # A corner of weight 0 is skipped by _sampled; here it adds 0 * a sample, +0.0, which changes no sum. Its
        # index may lie past the table (the upper corner of an input whose table has one sample): held within it.
        for out in range(outputs):
            values[out] = values[out] + weight * table[np.minimum(index * outputs + out, count - 1)]
    return np.stack([decode[2 * out] + values[out] * (decode[2 * out + 1] - decode[2 * out])
                     for out in range(outputs)], axis=1)


@functools.lru_cache(maxsize=4)  # (evaluate_many reads a table once, not for each ROWS_AT_ONCE inputs)
def _sample_table(data: bytes, count: int, bits: int) -> Any:
    """The first `count` samples of `bits` bits each of a sampled function's table, big-endian and packed without
    padding (PDF 1.7, 7.10.2), each as _sampled's sample() reads it: its value over the largest (2^bits - 1)."""
    import numpy as np

    raw = np.frombuffer(data, dtype=np.uint8)
    if bits % 8 == 0 and bits != 24:
        words = raw[:count * bits // 8].view(f">u{bits // 8}").astype(np.uint64)
    else:  # 1, 2, 4, 12 or 24 bits: the bits read one by one into each sample, most significant first
        spread = np.unpackbits(raw[:-(-count * bits // 8)])[:count * bits].reshape(count, bits)
        words = np.zeros(count, dtype=np.uint64)
        for bit in range(bits):
            words = (words << np.uint64(1)) | spread[:, bit].astype(np.uint64)
    table = words.astype(np.float64) / float((1 << bits) - 1)
    table.flags.writeable = False  # (shared by the calls the cache answers)
    return table


#: Integers below this size are held exactly by float64, in which the calculator's integers are kept here (the
#: one-by-one interpreter's are Python's, of any size): a program whose integers grow past it is evaluated colour by
#: colour.
EXACT_INTEGER = float(1 << 53)


class _Entries:
    """The stack of a PostScript calculator run over many inputs at once. Each entry is of one kind for every input
    (num, a number; bool; proc, a procedure), with its values, one an input (a procedure: the one program), and, for
    a number, which inputs hold an integer (the one-by-one interpreter's Python int, not float: `0` pushed where
    a clamp such as `dup 0 lt { pop 0 } if` chose it, a real elsewhere)."""

    def __init__(self, kinds: list[str], values: list[Any], integer: list[Any]) -> None:
        self.kinds, self.values, self.integer = kinds, values, integer

    def push(self, kind: str, value: Any, integer: Any = None) -> None:
        self.kinds.append(kind)
        self.values.append(value)
        self.integer.append(integer)

    def pop(self) -> tuple[str, Any, Any]:
        if not self.kinds:
            raise Unmeasured  # (an IndexError one by one)
        return self.kinds.pop(), self.values.pop(), self.integer.pop()

    def copy(self) -> _Entries:
        return _Entries(list(self.kinds), list(self.values), list(self.integer))

    def rows(self, chosen: Any) -> _Entries:
        """The entries of the inputs `chosen` (a mask) only."""
        return _Entries(list(self.kinds), [v if k == "proc" else v[chosen] for k, v in zip(self.kinds, self.values)],
                        [None if m is None else m[chosen] for m in self.integer])


def _calculator_many(function: Any, x: Any) -> Any:
    """A PostScript calculator function (type 4) at many inputs (rows of x) at once: _calculator's program run on
    numpy arrays, each operator as _run and _arithmetic apply it (elementary functions through Python's math, input
    by input, so that each figure, and each if's choice, is the one-by-one interpreter's). `if` and `ifelse` run each
    procedure on the inputs that choose it; where both are chosen, they must leave stacks alike (as deep, of the same
    kinds). Anything this cannot run as the one-by-one interpreter would, for every input (an error for any input,
    an operand the interpreter refuses for any, a stack whose depth differs between inputs, a count of copy, index
    or roll that differs, an integer past EXACT_INTEGER), raises Unmeasured: evaluated colour by colour, or said not
    measured."""
    import numpy as np

    ranges = function.get("/Range", ())
    text = function.get_data()
    if not ranges or len(text) > MAX_PROGRAM:
        raise Unmeasured
    program = _parse(text)
    rows = x.shape[0]
    stack = _Entries(["num"] * x.shape[1], [x[:, i].astype(np.float64) for i in range(x.shape[1])],
                     [np.zeros(rows, dtype=bool) for _ in range(x.shape[1])])
    try:
        _run_many(program, stack, rows)
    except RecursionError:
        raise Unmeasured from None
    outputs = len(ranges) // 2
    if len(stack.kinds) < outputs or any(k != "num" for k in stack.kinds[len(stack.kinds) - outputs:]):
        raise Unmeasured
    return np.stack(stack.values[len(stack.values) - outputs:], axis=1)


def _run_many(program: Program, stack: _Entries, rows: int) -> None:
    import numpy as np

    for item in program:
        if len(stack.kinds) > MAX_STACK:
            raise Unmeasured
        if isinstance(item, list):
            stack.push("proc", item)
        elif not isinstance(item, str):
            if isinstance(item, int) and abs(item) >= EXACT_INTEGER:
                raise Unmeasured
            stack.push("num", np.full(rows, float(item)), np.full(rows, isinstance(item, int)))
        elif item in ("true", "false"):
            stack.push("bool", np.full(rows, item == "true"))
        elif item in ("dup", "pop", "exch", "copy", "index", "roll"):
            _shuffle(stack, item)
        elif item in ("if", "ifelse"):
            bodies = [stack.pop() for _ in range(1 if item == "if" else 2)][::-1]
            kind, condition, _ = stack.pop()
            if kind != "bool" or any(body[0] != "proc" for body in bodies):
                raise Unmeasured
            _choose(stack, condition, [body[1] for body in bodies], rows)
        else:
            with np.errstate(all="ignore"):  # (an error is found in the figures, and refused as _run refuses it)
                _operate(stack, item)


def _integers(kind: str, value: Any, integer: Any) -> Any:
    """An operand that must be an integer for every input (of idiv, mod, bitshift, and, or, xor, not), as int64."""
    import numpy as np

    if kind != "num" or not integer.all():
        raise Unmeasured
    return value.astype(np.int64)


def _uniform(stack: _Entries) -> int:
    """An integer operand (of copy, index, roll) that must be the same for every input, popped."""
    kind, value, integer = stack.pop()
    found = _integers(kind, value, integer)
    if len(found) and not (found == found[0]).all():
        raise Unmeasured
    return int(found[0]) if len(found) else 0


def _shuffle(stack: _Entries, name: str) -> None:
    """The operators that move entries (dup, pop, exch, copy, index, roll), as _run moves them."""
    columns = (stack.kinds, stack.values, stack.integer)
    if name == "pop":
        stack.pop()
    elif name == "dup":
        if not stack.kinds:
            raise Unmeasured
        for column in columns:
            column.append(column[-1])
    elif name == "exch":
        if len(stack.kinds) < 2:
            raise Unmeasured
        for column in columns:
            column[-1], column[-2] = column[-2], column[-1]
    elif name == "copy":
        n = _uniform(stack)
        if not 0 <= n <= len(stack.kinds):
            raise Unmeasured
        for column in columns:
            column.extend(column[len(column) - n:])
    elif name == "index":
        n = _uniform(stack)
        if not 0 <= n < len(stack.kinds):
            raise Unmeasured
        for column in columns:
            column.append(column[-1 - n])
    else:
        j = _uniform(stack)
        n = _uniform(stack)
        if not 0 <= n <= len(stack.kinds):
            raise Unmeasured
        if n:
            j %= n
            for column in columns:
                top = column[len(column) - n:]
                column[len(column) - n:] = top[n - j:] + top[:n - j]


def _choose(stack: _Entries, condition: Any, bodies: list[Program], rows: int) -> None:
    """`if` (one body) or `ifelse` (two): each body run on the inputs that choose it; an input that chooses none
    (if, false) keeps its stack. Where both ways are taken the stacks must end alike (as deep, each entry of one
    kind, a procedure the same), and are put together."""
    import numpy as np

    ends = []
    for chosen, body in ((condition, bodies[0]), (~condition, bodies[1] if len(bodies) > 1 else [])):
        count = int(chosen.sum())
        if count == 0:
            continue
        part = stack.rows(chosen) if count < rows else stack.copy()
        _run_many(body, part, count)
        ends.append((chosen, part))
    if len(ends) == 1:
        stack.kinds, stack.values, stack.integer = ends[0][1].kinds, ends[0][1].values, ends[0][1].integer
        return
    (first_rows, first), (second_rows, second) = ends
    if first.kinds != second.kinds:
        raise Unmeasured  # (a stack of another depth or kind for some inputs than for others)
    values: list[Any] = []
    integer: list[Any] = []
    for kind, a, b, integer_a, integer_b in zip(first.kinds, first.values, second.values, first.integer,
                                                second.integer):
        if kind == "proc":
            if a != b:
                raise Unmeasured
            values.append(a)
            integer.append(None)
            continue
        merged = np.empty(rows, dtype=a.dtype)
        merged[first_rows], merged[second_rows] = a, b
        values.append(merged)
        if kind == "num":
            both = np.empty(rows, dtype=bool)
            both[first_rows], both[second_rows] = integer_a, integer_b
            integer.append(both)
        else:
            integer.append(None)
    stack.kinds, stack.values, stack.integer = list(first.kinds), values, integer


def _python(function: Callable[..., Any], *operands: Any) -> Any:
    """`function` (of Python's math, as _arithmetic and _UNARY compute) on the operands, input by input; NaN where it
    raises or gives no real number (then refused, as one by one)."""
    import numpy as np

    def safe(*values: float) -> float:
        try:
            found = function(*values)
        except (ValueError, OverflowError, ZeroDivisionError):
            return math.nan
        return found if isinstance(found, float) else math.nan

    columns = [operand.tolist() for operand in operands]
    return np.fromiter((safe(*values) for values in zip(*columns)), dtype=np.float64, count=len(operands[0]))


def _operate(stack: _Entries, name: str) -> None:
    """One arithmetic, relational, boolean or bitwise operator of the calculator, as _arithmetic (and _run's `not`)
    compute it for each input; raises Unmeasured where _arithmetic raises for any input."""
    import numpy as np

    if name in ("not", *_UNARY):
        kind, value, integer = stack.pop()
        if name == "not" and kind == "bool":
            stack.push("bool", ~value)
        elif name == "not":
            stack.push("num", (~_integers(kind, value, integer)).astype(np.float64), integer)
        elif kind != "num":
            raise Unmeasured
        else:
            stack.push("num", *_unary_many(name, value, integer))
        return
    (kind_b, b, integer_b), (kind_a, a, integer_a) = stack.pop(), stack.pop()
    if name in ("and", "or", "xor"):
        if kind_a == kind_b == "bool":
            stack.push("bool", {"and": a & b, "or": a | b, "xor": a != b}[name])
        else:
            x, y = _integers(kind_a, a, integer_a), _integers(kind_b, b, integer_b)
            stack.push("num", {"and": x & y, "or": x | y, "xor": x ^ y}[name].astype(np.float64), integer_a)
    elif name in ("eq", "ne"):
        if "proc" in (kind_a, kind_b):  # (a procedure equals only the same procedure, as Python's lists compare)
            same = np.full(len(b if kind_a == "proc" else a), kind_a == kind_b and a == b)
        else:
            same = a.astype(np.float64) == b.astype(np.float64)  # (True == 1 in Python, as in _arithmetic)
        stack.push("bool", same if name == "eq" else ~same)
    elif kind_a != "num" or kind_b != "num":
        raise Unmeasured
    elif name in _COMPARE:
        stack.push("bool", {"ge": a >= b, "gt": a > b, "le": a <= b, "lt": a < b}[name])
    elif name in ("idiv", "mod", "bitshift"):
        stack.push("num", _integer_many(name, _integers(kind_a, a, integer_a), _integers(kind_b, b, integer_b)),
                   integer_a)
    else:
        _binary_many(stack, name, a, b, integer_a & integer_b)


def _integer_many(name: str, x: Any, y: Any) -> Any:
    """idiv, mod and bitshift of integers, as _arithmetic computes them."""
    import numpy as np

    if name == "bitshift":
        if ((y > 0) & (y < 32) & (np.abs(x) * np.exp2(np.clip(y, 0, 31)) >= EXACT_INTEGER)).any():
            raise Unmeasured
        shifted = np.where(y >= 0, x << np.clip(y, 0, 31), x >> np.clip(-y, 0, 31))
        return np.where((y >= 32) | (y <= -32), 0, shifted).astype(np.float64)
    if (y == 0).any():
        raise Unmeasured
    quotient = np.abs(x) // np.abs(y) * np.where((x < 0) == (y < 0), 1, -1)  # truncated towards zero
    return (quotient if name == "idiv" else x - quotient * y).astype(np.float64)


def _binary_many(stack: _Entries, name: str, a: Any, b: Any, integers: Any) -> None:
    """add, sub, mul, div, exp and atan, as _arithmetic computes them: an integer where both operands are
    integers (add, sub, mul), else a real."""
    import numpy as np

    if name == "div" and (b == 0).any():
        raise Unmeasured
    if name == "exp":
        value = _python(lambda p, q: float(p) ** float(q), a, b)
    elif name == "atan":
        value = _python(lambda p, q: math.degrees(math.atan2(p, q)) % 360.0, a, b)
    else:
        value = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}[name](a, b)
    if not np.isfinite(value).all():
        raise Unmeasured
    if name not in ("add", "sub", "mul"):
        stack.push("num", value, np.zeros(len(value), dtype=bool))
        return
    if (integers & (np.abs(value) >= EXACT_INTEGER)).any():  # (rounded, or may be: not Python's integer)
        raise Unmeasured
    stack.push("num", np.where(integers, value + 0.0, value), integers)  # (an integer has no -0)


def _unary_many(name: str, value: Any, integer: Any) -> tuple[Any, Any]:
    """A one-operand operator (_UNARY) on many numbers, as it computes each: an integer stays one where _UNARY keeps
    its type (abs, neg, the roundings); abs, neg, the roundings and cvr are exact in numpy, the others go through
    Python's math."""
    import numpy as np

    real = np.zeros(len(value), dtype=bool)
    if name == "abs":
        return np.abs(value), integer
    if name == "neg":
        return np.where(integer, -value + 0.0, -value), integer
    if name in ("ceiling", "floor", "round", "truncate"):
        rounded = np.floor(value + 0.5) if name == "round" else \
            {"ceiling": np.ceil, "floor": np.floor, "truncate": np.trunc}[name](value)
        return np.where(integer, value, rounded + 0.0), integer  # (float(math.floor(v)) is never -0.0)
    if name == "cvr":
        return value, real
    if name == "cvi":
        if (np.abs(value) >= EXACT_INTEGER).any():
            raise Unmeasured
        return np.trunc(value) + 0.0, ~real
    found = _python(_UNARY[name], value)
    if not np.isfinite(found).all():
        raise Unmeasured
    return found, real
