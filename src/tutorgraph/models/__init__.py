"""The engine's own records (`records`). The request, the packet and the curriculum models
are the API's contract and live in the client distribution (`tutorgraph_client.models`)."""
