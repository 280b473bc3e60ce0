"""Framework adapters over the client: `langgraph.MemoryServiceStore` (a LangGraph BaseStore) and
`adk.MemoryServiceMemory` (a Google ADK BaseMemoryService). Each needs its extra:
`pip install "memory-service-client[langgraph]"` or `[adk]`."""
