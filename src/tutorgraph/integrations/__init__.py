"""Framework adapters: a LangChain and a LlamaIndex retriever over tutorgraph packets
(`tutorgraph[langchain]`, `tutorgraph[llamaindex]`)."""
