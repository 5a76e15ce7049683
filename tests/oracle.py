"""The independent oracle: (type name, JSON text) → what sequence-base 0.4.28 decides. Tests only.

sequence-base is installed as a test-only dependency and never imported by the package. Each of our types that
upstream has maps to the upstream class (or, for the enums and flags, a pydantic TypeAdapter of the upstream type); the
text is validated with pydantic's JSON reader, exactly as a worker running sequence-base would read a body.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticError


@cache
def _upstream_types() -> dict[str, Any]:
    from sequence_base.contract import act, connect, deployments, flags, io, observe, own_io, policy, wire
    from sequence_base.contract.accounts import SecretRef

    return {
        "Stream": own_io.Stream,
        "Observations": own_io.Observations,
        "Actions": own_io.Actions,
        "Tensors": own_io.Tensors,
        "Camera": io.Camera,
        "Episodes": policy.Episodes,
        "ObserveFrame": observe.ObserveFrame,
        "ObserveRequest": observe.ObserveRequest,
        "ObserveResponse": observe.ObserveResponse,
        "ActRequest": wire.ActRequest,
        "ActResponse": wire.ActResponse,
        "Timeouts": deployments.Timeouts,
        "DeploymentPolicy": deployments.DeploymentPolicy,
        "ConnectResponse": connect.ConnectResponse,
        "Lease": connect.Lease,
        "ActionSpace": act.ActionSpace,
        "ActionContract": io.ActionContract,
        "ObservationContract": io.ObservationContract,
        "Embodiment": io.Embodiment,
        "SecretRef": SecretRef,
        "InferParam": deployments.InferParam,
        "SeqFlags": flags.SeqFlags,
    }


NOT_UPSTREAM = {
    "StreamError": "the error body of spec/stream.md § 10, decided by this package; upstream has no such model",
}
"""Our types upstream has no counterpart of, with the reason: no oracle can judge their vectors."""


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    dump: Any = None
    error: str = ""


def upstream_verdict(type_name: str, text: str) -> Verdict:
    """Validate JSON text with sequence-base 0.4.28; a crash inside upstream counts as a refusal."""
    adapter: TypeAdapter[Any] = TypeAdapter(_upstream_types()[type_name])
    try:
        value = adapter.validate_json(text)
    except PydanticError as error:
        return Verdict(False, error=str(error).splitlines()[0])
    except Exception as error:
        return Verdict(False, error=f"upstream crashed: {type(error).__name__}: {error}")
    return Verdict(True, dump=adapter.dump_python(value, mode="json"))
