"""Framework adapters: a LangChain and a LlamaIndex retriever over tutorgraph packets
(`pip install "tutorgraph-client[langchain]"` or `[llamaindex]`)."""
