"""`/docs`: Swagger UI served from the `swagger-ui-bundle` package, so the page works on a
machine without internet (FastAPI's default loads it from a CDN). FastAPI's self-hosting
recipe; ReDoc, which has no packaged copy, is off."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["ASSETS_PATH", "install_docs"]

ASSETS_PATH = "/docs-assets"


def install_docs(app: FastAPI) -> None:
    """Serve Swagger UI at `/docs` from the packaged assets (the app is made with
    `docs_url=None, redoc_url=None`)."""
    from swagger_ui_bundle import swagger_ui_path

    app.mount(ASSETS_PATH, StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"
    redirect_url = app.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=redirect_url,
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon-32x32.png",
        )

    @app.get(redirect_url, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()
