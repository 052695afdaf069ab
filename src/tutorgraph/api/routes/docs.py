"""`/docs` (Swagger UI) and `/redoc` served from the assets packaged in `fastapi-offline`, so
both pages work on a machine without internet (FastAPI's defaults load them from a CDN).
FastAPI's self-hosting recipe; Swagger UI 5, which reads the OpenAPI 3.1 FastAPI writes."""

from __future__ import annotations

from importlib.resources import files

from fastapi import FastAPI
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["ASSETS_PATH", "UI_PATH", "install_docs", "install_ui"]

ASSETS_PATH = "/docs-assets"


def install_docs(app: FastAPI) -> None:
    """Serve `/docs` and `/redoc` from the packaged assets (the app is made with
    `docs_url=None, redoc_url=None`)."""
    assets = files("fastapi_offline") / "static"
    app.mount(ASSETS_PATH, StaticFiles(directory=str(assets)), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"
    redirect_url = "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=redirect_url,
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon.png",
        )

    @app.get(redirect_url, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=openapi_url,
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{ASSETS_PATH}/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS_PATH}/favicon.png",
            with_google_fonts=False,
        )


UI_PATH = "/ui"


def install_ui(app: FastAPI) -> None:
    """The packet explorer at `/ui`: plain HTML, CSS and JavaScript packaged with tutorgraph
    (no CDN, no build step). It calls `POST /v1/retrieve` with the key typed into the page."""
    ui = files("tutorgraph.api") / "ui"
    app.mount(f"{UI_PATH}/assets", StaticFiles(directory=str(ui)), name="ui-assets")
    page = str(ui / "index.html")

    @app.get(UI_PATH, include_in_schema=False)
    async def explorer() -> FileResponse:
        return FileResponse(page, media_type="text/html")
