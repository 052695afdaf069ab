"""The one exception tree of tutorgraph, drawn in full in the docstring of
`tutorgraph_client.errors`, where it lives.

The tree ships in the client distribution, so that a server's errors and a client's are the
same classes; the engine re-exports every name of it here.

>>> from tutorgraph.errors import APIError, HTTPStatusError, RateLimitedError
>>> issubclass(RateLimitedError, HTTPStatusError) and issubclass(HTTPStatusError, APIError)
True
"""

from tutorgraph_client import errors as _tree
from tutorgraph_client.errors import *  # noqa: F403  (the names of `_tree.__all__`)

__all__ = _tree.__all__
