"""The HTTP API: `create_app(settings)` builds the FastAPI app (`tutorgraph serve` runs it).

>>> from tutorgraph.api import create_app
>>> app = create_app(Settings())  # doctest: +SKIP
"""

from tutorgraph.api.app import create_app

__all__ = ["create_app"]
