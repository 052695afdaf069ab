# tutorgraph API image: CPU torch, the project, and an index built from the bundled curriculum.
#   docker build -t tutorgraph .
#   docker run -p 8000:8000 tutorgraph
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
COPY src ./src
COPY data ./data
RUN pip install . && useradd --create-home --uid 10001 tutorgraph \
    && mkdir -p /var/lib/tutorgraph && chown tutorgraph /var/lib/tutorgraph
USER tutorgraph

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"
# Ingest is incremental: on a warm volume an unchanged bundle re-embeds nothing. Once an HTTP
# ingest has replaced the index (it writes the pointer file INDEX_DIR.current), the served
# index is that one, and the bundle in the image is not ingested over it again.
CMD ["sh", "-c", "[ -e \"$TUTORGRAPH_INDEX_DIR.current\" ] || tutorgraph ingest data/curriculum && exec tutorgraph serve --host 0.0.0.0 --port 8000"]
