"""A batch's tensors read as classes and counted where they live.

`classes` checks a batch (`preds`, `target`) and turns it into two int64 (or bool)
tensors of classes, on the batch's device; `count_cells` counts them into the C x C
table (rows actual, columns predicted) with one `torch.bincount` of
``actual * C + predicted``. No row leaves the device: the checks are reductions on it
(`torch.aminmax`, `torch.any`) and only their few values are read, and only an error's
message reads the one bad element it names.

What `preds` may be:

* labels (an integer or bool tensor of the target's shape): the predicted classes;
* binary, scores of the target's shape (floating point): the positive class (1) is
  predicted where ``preds >= threshold``, informed's convention (a Ranking's operating
  point predicts the rows scored t or more); torchmetrics predicts where
  ``preds > threshold``, which differs only for a score equal to the threshold. Scores
  must be probabilities in [0, 1]; logits are read with ``logits=True``, as
  ``sigmoid(preds) >= threshold``;
* multiclass, scores of shape (N, C, ...) for a target of shape (N, ...): probabilities or
  logits alike, the predicted class is their argmax over dimension 1 (the first of equal
  largest scores, as `torch.argmax` picks it).

`target` holds the actual classes 0 .. C-1: integers, bool, or floats that are whole
numbers (a float target 0.5 is refused, never rounded).
"""

from __future__ import annotations

from typing import Literal

import torch

from informed.errors import InputError, InputTypeError, at_row

__all__ = ["classes", "count_cells"]

Task = Literal["binary", "multiclass"]


def _where(tensor: torch.Tensor, bad: torch.Tensor) -> str:
    """The first bad element's place, as every message says it (rows count from 1)."""
    first = [int(i) for i in bad.nonzero()[0].tolist()]
    if tensor.dim() == 1:
        return at_row(first[0])
    return "index (" + ", ".join(str(i) for i in first) + ")"


def _refuse(name: str, tensor: torch.Tensor, bad: torch.Tensor, what: str) -> InputError:
    """The error naming the tensor, its first bad element and its value."""
    value = tensor[tuple(int(i) for i in bad.nonzero()[0].tolist())].detach().cpu()
    if value.dtype == torch.bfloat16:  # numpy has no bfloat16
        value = value.to(torch.float32)
    # numpy's scalar prints the shortest text of its own precision: 1.7, not 1.70000004...
    shown = str(value.numpy()[()]) if value.is_floating_point() else repr(value.item())
    return InputError(f"`{name}` at {_where(tensor, bad)} is {shown}: {what}")


def _checked_tensor(name: str, value: object) -> torch.Tensor:
    if not isinstance(value, torch.Tensor):
        msg = f"`{name}` must be a torch.Tensor; got {type(value).__name__}."
        raise InputTypeError(msg)
    if value.is_complex():
        msg = f"`{name}` has the complex dtype {value.dtype}: classes are integers."
        raise InputTypeError(msg)
    return value


def _labels(name: str, tensor: torch.Tensor, C: int) -> torch.Tensor:
    """Integer, bool or whole-float classes 0 .. C-1, as int64 (bool kept for two)."""
    if tensor.dtype == torch.bool:  # classes 0 and 1, and C is at least 2
        return tensor
    if tensor.is_floating_point():
        fractional = tensor != tensor.trunc()  # nan and the fractions; inf is caught below
        if bool(fractional.any()):
            what = f"classes are whole numbers 0 .. {C - 1}."
            raise _refuse(name, tensor, fractional, what)
    if tensor.numel():
        low, high = torch.aminmax(tensor)
        low_value, high_value = torch.stack([low, high]).tolist()
        if low_value < 0 or high_value >= C:
            bad = (tensor < 0) | (tensor >= C)
            what = f"with num_classes={C} the classes are 0 .. {C - 1}."
            raise _refuse(name, tensor, bad, what)
    return tensor if tensor.dtype == torch.int64 else tensor.to(torch.int64)


def _binary_scores(preds: torch.Tensor, threshold: float, logits: bool) -> torch.Tensor:
    """Scores to predicted classes: True where the score is at or above the threshold."""
    if not preds.numel():
        return preds.to(torch.bool)
    low, high = torch.aminmax(preds)
    low_value, high_value = torch.stack([low, high]).tolist()
    if low_value != low_value or high_value != high_value:  # nan
        raise _refuse("preds", preds, preds.isnan(), "a score cannot be nan.")
    if logits:
        return torch.sigmoid(preds) >= threshold
    if low_value < 0 or high_value > 1:
        bad = (preds < 0) | (preds > 1)
        what = "floating preds are probabilities in [0, 1]; for logits pass logits=True."
        raise _refuse("preds", preds, bad, what)
    return preds >= threshold


def _multiclass_scores(preds: torch.Tensor) -> torch.Tensor:
    """Scores over the classes (dimension 1) to the class of the largest score (the first
    of equal ones, as `torch.argmax`). One pass: `torch.max` gives the largest scores with
    their classes, and a nan score makes its row's largest score nan."""
    largest, predicted = preds.max(dim=1)
    if bool(largest.isnan().any()):
        raise _refuse("preds", preds, preds.isnan(), "a score cannot be nan.")
    return predicted


def classes(
    preds: object,
    target: object,
    *,
    task: Task,
    num_classes: int,
    threshold: float,
    logits: bool,
) -> tuple[torch.Tensor, torch.Tensor]:
    """A batch checked and read as (predicted, actual) classes on its device.

    Parameters
    ----------
    preds, target : torch.Tensor
        The batch, as the module's docstring says.
    task : {"binary", "multiclass"}
        Two classes (0 negative, 1 positive), or `num_classes`.
    num_classes : int
        C, the number of classes (2 for binary).
    threshold : float
        Binary scores at or above it predict class 1.
    logits : bool
        Binary scores are logits, read through the sigmoid.

    Returns
    -------
    (predicted, actual) : (torch.Tensor, torch.Tensor)
        Classes of equal shape, int64 or bool, on the batch's device.

    Raises
    ------
    InputTypeError
        Something other than a tensor, complex numbers.
    InputError
        Shapes that do not match, tensors on two devices, a class outside 0 .. C-1, a
        target that is not a whole number, a nan score, a probability outside [0, 1].
    """
    preds = _checked_tensor("preds", preds)
    target = _checked_tensor("target", target)
    if preds.device != target.device:
        msg = f"`preds` is on {preds.device} and `target` on {target.device}: use one device."
        raise InputError(msg)
    actual = _labels("target", target, num_classes)
    scores = preds.is_floating_point()
    if task == "multiclass" and scores:
        if not target.dim():
            msg = (
                "floating `preds` are scores of shape (N, C, ...) for a target of shape "
                "(N, ...); the target has no batch dimension (shape ())."
            )
            raise InputError(msg)
        expected = (target.shape[0], num_classes, *target.shape[1:])
        if preds.shape != expected:
            msg = (
                f"floating `preds` are scores of shape (N, C, ...) = {expected} for a "
                f"target of shape {tuple(target.shape)}; got {tuple(preds.shape)}."
            )
            raise InputError(msg)
        return _multiclass_scores(preds), actual
    if preds.shape != target.shape:
        msg = (
            f"`preds` has shape {tuple(preds.shape)} and `target` {tuple(target.shape)}: "
            "labels (and binary scores) have the target's shape"
            + (
                "; scores of two classes are a multiclass task with num_classes=2, "
                "or pass the positive class's column."
                if task == "binary" and scores and preds.dim() == target.dim() + 1
                else "."
            )
        )
        raise InputError(msg)
    if scores:
        return _binary_scores(preds, threshold, logits), actual
    return _labels("preds", preds, num_classes), actual


def count_cells(predicted: torch.Tensor, actual: torch.Tensor, C: int) -> torch.Tensor:
    """The C x C int64 counts (rows actual, columns predicted) of a batch, on its device:
    one `torch.bincount` of ``actual * C + predicted``."""
    keys = actual.reshape(-1).to(torch.int64, copy=True)
    keys.mul_(C).add_(predicted.reshape(-1))
    return torch.bincount(keys, minlength=C * C).reshape(C, C)
