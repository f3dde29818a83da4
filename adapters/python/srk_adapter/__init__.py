"""The strict wire layer of spec/wire/PROTOCOL.md for an implementation written in Python.

Standard library only, Python 3.10 or later. The implementer writes handlers; the adapter does the
rest of the wire: framing and the line bound, strict JSON, the W-4 checks in order, the handshake
and profile, request validation against the kit's JSON Schemas, dispatch, definite and indefinite
errors, shutdown. See adapters/python/README.md.

    from srk_adapter import Refusal, serve

    def mint(state, command):
        ...
        return [{"type": "agent.minted", ...}, ...]

    raise SystemExit(serve(name="my-impl", version="0.1.0", profile=["advaita"],
                           handlers={"advaita.mint": mint, ...}, state=state, reset=reset))
"""

from .errors import Internal, Refusal
from .schema import Issue, Schemas, SchemaError
from .serve import data_dir, serve
from .session import ConfigurationError, Session
from .spec import Spec

__all__ = [
    "ConfigurationError", "Internal", "Issue", "Refusal", "SchemaError", "Schemas", "Session", "Spec", "data_dir", "serve",
]
