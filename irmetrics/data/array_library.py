"""The library an array lives in, and the few operations irmetrics runs there (numpy or torch).

A score matrix is ranked, and the measures read from its top, in the array's own library and on its own
device: a numpy array with numpy (on the host, blocks of users in threads: numpy releases the GIL), a
torch tensor on a GPU with torch on that GPU.  A tensor on the CPU is the numpy array it holds (read
without a copy, ranked by numpy's threads: faster than torch's dispatch on arrays of users x depth;
:data:`TORCH_ON_CPU` ranks it with torch instead).  Any other array exposing DLPack (CuPy, JAX) goes
to torch through DLPack on its own device, without a copy, when torch is installed, else to numpy (an
array on a GPU then copied to the host).  Only what the measures need comes back to the host.

Scores are compared as trec_eval compares them, as doubles, whatever the element type: a block of a
score matrix is ranked as the floats of :meth:`Numpy.as_doubles` / :meth:`Torch.as_doubles` (integers
beyond 2^53 tie where their doubles do, as in the TREC file of the same matrix), never by exact integer
comparison.  Every array read here is :data:`MATRIX`; anything else is the one error :func:`not_a_matrix`.

torch is imported only when an array is a tensor or must become one; numpy is always there.

Why not the array API through ``array-api-compat`` (as scikit-learn does): measured on 2026-11-29 (the hit
kernels' operations for AP and RR on a users x k block, medians of interleaved runs, numpy 2 and torch 2.13 on
the CPU, array-api-compat 1.16), its namespaces are as fast on large blocks (10,000 x 100: within the machine's
noise, 35.5 vs 39.0 ms numpy, 176 vs 184 ms torch) and slower on small ones (64 x 10: 30 vs 40 us numpy,
65 vs 73 us torch: a wrapper per call), and importing ``array_api_compat.torch`` costs 0.14 s.  It would replace
only the generic one-liners here (``f64``, ``arange``, ``where``, ``searchsorted``, ``row_max``, ``stack_columns``,
``take``, ``sort_descending``), each then spelled with its ``device=`` and ``astype``; what the rest of this module
does (DLPack arrays to the library that ranks them, scores as doubles, bfloat16 and float8 to the host, the
errors for what is no matrix) is irmetrics' own either way.  So two small classes, and no dependency.
"""
from __future__ import annotations

from typing import Any, cast

import numpy as np

from ..errors import InputError

#: DLPack device types numpy reads in place: the CPU, and CUDA memory pinned for the host
_CPU = 1
_HOST = (_CPU, 3)
#: what every array irmetrics reads must be, as the one error for anything else says (:func:`not_a_matrix`)
MATRIX = 'a dense 2-D array (users x items) of integers, booleans or floats'


def not_a_matrix(got: str, name: str) -> InputError:
    """The error for an input that is not :data:`MATRIX` (``got`` says what it is, and how to convert it)."""
    return InputError(f'expected {MATRIX}, got {got}', name)


class _Arithmetic:
    """What is computed alike in every library, through its own ``where``."""

    def where(self, condition: Any, a: Any, b: Any) -> Any:
        raise NotImplementedError

    def divide(self, num: Any, den: Any) -> Any:
        """num / den (float64 arrays), 0 where den is 0: trec_eval's convention for an empty denominator."""
        nonzero = den != 0
        return self.where(nonzero, num / self.where(nonzero, den, 1.0), 0.0)


class Numpy(_Arithmetic):
    """numpy on the host: the library of numpy arrays, and of any array when torch is not installed."""

    name = 'numpy'
    device = 'cpu'

    def to_host(self, x: Any) -> np.ndarray:
        return np.asarray(x)

    def as_doubles(self, x: np.ndarray) -> np.ndarray:
        """Scores as floats that order as their doubles do: ``x`` itself when a float of at most 64 bits (float16
        and float32 values are doubles exactly), else float64 (integers and booleans, rounded as a TREC file of
        them is read: 2^53 + 1 becomes 2^53; a long double rounded to the double trec_eval compares)."""
        return x if x.dtype.kind == 'f' and x.dtype.itemsize <= 8 else x.astype(np.float64)

    def from_host(self, x: np.ndarray) -> Any:
        return x

    def f64(self, x: Any) -> Any:
        return np.asarray(x, dtype=np.float64)

    def arange(self, n: int) -> Any:
        return np.arange(n, dtype=np.int64)

    def where(self, condition: Any, a: Any, b: Any) -> Any:
        return np.where(condition, a, b)

    def searchsorted(self, ordered: Any, values: Any) -> Any:
        return np.searchsorted(ordered, values)

    def row_max(self, x: Any) -> Any:
        return x.max(axis=1) if x.shape[1] else np.zeros(len(x), dtype=x.dtype)

    def stack_columns(self, columns: list[Any]) -> Any:
        """One value per row of each of ``columns``, as a rows x columns array."""
        return np.stack(columns, axis=1)


class Torch(_Arithmetic):
    """torch on the tensor's device (the CPU or a GPU); imported when first used."""

    name = 'torch'

    def __init__(self, device: Any):
        import torch
        self.torch = torch
        self.device = device

    def to_host(self, x: Any) -> np.ndarray:
        """``x`` on the host as numpy; a float type numpy lacks (bfloat16, float8) as float32, which holds its
        values exactly."""
        x = x.detach().cpu()
        return cast(np.ndarray, (x.to(self.torch.float32) if x.dtype.is_floating_point
                                 and x.dtype not in self._numpy_floats else x).numpy())

    @property
    def _numpy_floats(self) -> tuple[Any, ...]:
        return self.torch.float16, self.torch.float32, self.torch.float64

    def as_doubles(self, x: Any) -> Any:
        """Scores as floats that order as their doubles do (:meth:`Numpy.as_doubles`): ``x`` itself when float16,
        bfloat16, float32 or float64; float32 for float8 (exact; torch ranks no float8), float64 for integers
        (uint64 included: 2^63 and more stay positive) and booleans."""
        torch = self.torch
        if x.dtype in (*self._numpy_floats, torch.bfloat16):
            return x
        return x.to(torch.float32 if x.dtype.is_floating_point else torch.float64)

    def from_host(self, x: np.ndarray) -> Any:
        return self.torch.as_tensor(np.ascontiguousarray(x), device=self.device)

    def f64(self, x: Any) -> Any:
        return x.to(self.torch.float64)

    def arange(self, n: int) -> Any:
        return self.torch.arange(n, dtype=self.torch.int64, device=self.device)

    def where(self, condition: Any, a: Any, b: Any) -> Any:
        return self.torch.where(condition, a, b)

    def searchsorted(self, ordered: Any, values: Any) -> Any:
        return self.torch.searchsorted(ordered, values.contiguous())

    def row_max(self, x: Any) -> Any:
        return x.amax(dim=1) if x.shape[1] else self.torch.zeros(len(x), dtype=x.dtype, device=x.device)

    def stack_columns(self, columns: list[Any]) -> Any:
        return self.torch.stack(columns, dim=1)

    def take(self, x: Any, index: Any) -> Any:
        """``x[i, index[i, j]]``: a gather along the rows."""
        return self.torch.gather(x, 1, index)

    def sort_descending(self, x: Any) -> tuple[Any, Any]:
        """Each row sorted descending, stably (equal values keep their order), and the order."""
        values, order = self.torch.sort(x, dim=1, descending=True, stable=True)
        return values, order

    def nonzero_rows(self, mask: Any) -> np.ndarray:
        """The positions where a 1-D mask is true, on the host."""
        return self.to_host(self.torch.nonzero(mask).flatten())


Library = Numpy | Torch
NUMPY = Numpy()
#: whether a tensor on the CPU is ranked by torch; by default it is read as the numpy array it already is (no
#: copy), whose ranking spreads blocks of rows over the cores and reads small arrays faster than torch's dispatch
TORCH_ON_CPU = False


def _numpy_reads(tensor: Any) -> bool:
    """Whether numpy has the tensor's element type (not bfloat16, for one)."""
    try:
        tensor[:0].numpy()
    except (TypeError, RuntimeError):
        return False
    return True


def is_tensor(obj: Any) -> bool:
    """A torch tensor (told by its type's module: torch is not imported to ask)."""
    return type(obj).__module__.startswith('torch') and hasattr(obj, 'device') and hasattr(obj, 'dtype')


def in_own_library(obj: Any, name: str) -> tuple[Any, Library]:
    """``obj`` as an array of the library that ranks it, and that library (see the module docstring), checked
    to be :data:`MATRIX` with at least one row and one column (else an error naming ``name``).

    A torch tensor stays itself (detached from its graph); a numpy array too; another DLPack array becomes
    a tensor on its own device when torch is installed, else a numpy array (copied from a GPU).
    """
    array, library = _in_library(obj, name)
    _check_matrix(array, name)
    return array, library


def _in_library(obj: Any, name: str) -> tuple[Any, Library]:
    if isinstance(obj, np.ndarray):
        return obj, NUMPY
    if is_tensor(obj):
        _check_tensor(obj, name)
        if obj.device.type == 'cpu' and not TORCH_ON_CPU and _numpy_reads(obj):
            return obj.detach().numpy(), NUMPY
        return obj.detach(), Torch(obj.device)
    if type(obj).__module__.startswith('scipy.sparse'):
        raise not_a_matrix('a scipy.sparse matrix: a sparse matrix is read as judgments (or exclude=), a run is '
                           'dense: convert it with .toarray()', name)
    if hasattr(obj, '__dlpack__'):
        device = obj.__dlpack_device__()[0] if hasattr(obj, '__dlpack_device__') else _CPU
        tensor = None if device in _HOST else _tensor_of_dlpack(obj)
        if tensor is not None:
            return tensor, Torch(tensor.device)
        return _numpy_of_dlpack(obj, device, name), NUMPY
    return np.asarray(obj), NUMPY


def _check_tensor(tensor: Any, name: str) -> None:
    """A tensor that holds a dense matrix's values: not on torch's 'meta' device (a shape without values), not
    sparse, not nested, 2-D (checked before anything reads it: a 0-d tensor cannot even be sliced)."""
    if tensor.device.type == 'meta':
        raise InputError("the tensor is on torch's 'meta' device: it has a shape but no values to rank; give "
                         'a tensor on the CPU or a GPU', name)
    if getattr(tensor, 'is_nested', False):
        raise not_a_matrix('a nested tensor (rows of different lengths): pad it to one dense tensor, '
                           "torch.nested.to_padded_tensor(x, float('-inf')) for scores (-inf ranks nothing)", name)
    if str(tensor.layout) != 'torch.strided':
        raise not_a_matrix(f'a sparse tensor ({tensor.layout}): convert it with .to_dense()', name)
    if tensor.dim() != 2:
        raise _dimensions(tensor, name)


def _dimensions(array: Any, name: str) -> InputError:
    return not_a_matrix(f'{array.ndim} dimension(s) of shape {tuple(int(n) for n in array.shape)}', name)


def _check_matrix(array: Any, name: str) -> None:
    """:data:`MATRIX`, with at least one row and one column: an array of no value (a dimension of size 0) is an
    error, as a tensor without data is."""
    if array.ndim != 2:
        raise _dimensions(array, name)
    if dtype_kind(array) not in ('i', 'u', 'f', 'b'):
        raise not_a_matrix(f'an array of {array.dtype}', name)
    if 0 in tuple(array.shape):
        raise InputError(f'the array holds no value (shape {tuple(int(n) for n in array.shape)}): give at least '
                         f'one user (row) and one item (column)', name)


def _tensor_of_dlpack(obj: Any) -> Any:
    """An array on a device (a GPU) as a torch tensor on that device, without a copy; None when torch is not
    installed or cannot take it (a build without that device)."""
    try:
        import torch
        return torch.from_dlpack(obj)
    except Exception:                      # ImportError, or torch's errors for a device it was built without
        return None


def _numpy_of_dlpack(obj: Any, device: int, name: str) -> np.ndarray:
    """An array exposing DLPack as numpy: a view of an array on the host, a copy of one on a GPU."""
    try:
        return np.from_dlpack(obj) if device in _HOST else np.from_dlpack(obj, device='cpu')
    except (RuntimeError, TypeError, BufferError, ValueError) as ex:
        problem = ('read the array' if device in _HOST else
                   f'copy the array from its device (DLPack type {device}) to the CPU')
        raise InputError(f'cannot {problem} ({ex}); give a CPU array of integers or floats (a torch tensor: .cpu(), '
                         f'and .float() for bfloat16)', name) from None


def dtype_kind(array: Any) -> str:
    """numpy's kind letter of an array's element type ('i', 'u', 'f', 'b'; 'c' complex; '?' other)."""
    if isinstance(array, np.ndarray):
        return cast(str, array.dtype.kind)
    dtype = array.dtype
    text = str(dtype)
    if dtype.is_complex:
        return 'c'
    if dtype.is_floating_point:                  # not the packed types (float4_e2m1fn_x2: two values an element)
        return '?' if text.endswith('_x2') else 'f'
    if text == 'torch.bool':
        return 'b'
    return 'u' if text.startswith('torch.uint') else 'i' if text.startswith('torch.int') else '?'
