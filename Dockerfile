# tutorgraph API image: CPU torch, the project, and an index built from the bundled curriculum.
#   docker build -t tutorgraph .
#   docker run --rm tutorgraph tutorgraph keys hash --role admin   # a new key (stderr), its entry
#   docker run -p 8000:8000 -v tutorgraph:/var/lib/tutorgraph \
#     -e TUTORGRAPH_API_KEYS="sha256:<hex>:admin,sha256:<hex>:read" tutorgraph
# The server listens on 0.0.0.0 inside the container, so without TUTORGRAPH_API_KEYS it refuses
# to start (every caller would be an admin, free to replace the index); only
# -e TUTORGRAPH_ALLOW_ANONYMOUS=1 serves it without keys (e.g. behind an authenticating proxy).
# With Neo4j and a Chroma server, use compose.yaml instead.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HF_HUB_OFFLINE=1 \
    TOKENIZERS_PARALLELISM=false \
    TUTORGRAPH_INDEX_DIR=/var/lib/tutorgraph/index \
    TUTORGRAPH_EMBEDDER_BACKEND=onnx

WORKDIR /app
# The CPU build of torch first, so that sentence-transformers pulls no CUDA packages.
RUN pip install "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu
COPY pyproject.toml README.md LICENSE ./
COPY clients ./clients
COPY src ./src
COPY data ./data
# The [server] extra: FastAPI, uvicorn, prometheus-client and limits, which `serve` needs
# (without it `serve` exits 2 in the image; tests/unit/test_compose.py checks this line).
RUN pip install ./clients/python ".[server]" && useradd --create-home --uid 10001 tutorgraph \
    && mkdir -p /var/lib/tutorgraph && chown tutorgraph /var/lib/tutorgraph
USER tutorgraph

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"
# The bundle is ingested only into an empty volume. An index is there once manifest.json (written
# last, so an interrupted first ingest is simply redone) or CURRENT (the generation an HTTP
# ingest made) exists; ingesting the image's bundle over an index an HTTP ingest replaced would
# merge its records back in. To take a newer image's bundle, run `tutorgraph ingest
# data/curriculum` in the container (incremental: unchanged records are not re-embedded).
CMD ["sh", "-c", "[ -e \"$TUTORGRAPH_INDEX_DIR/manifest.json\" ] || [ -e \"$TUTORGRAPH_INDEX_DIR/CURRENT\" ] || tutorgraph ingest data/curriculum && exec tutorgraph serve --host 0.0.0.0 --port 8000"]
