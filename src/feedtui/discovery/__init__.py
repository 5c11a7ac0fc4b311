"""Discovery: Ask over the whole cache, related papers and "For you".

Pure logic: ranking, the embedding model, the stored vectors, the taste
model. The engine (core/discovery.py) reads the cache and hands the texts
in; nothing here touches the network or the state file. numpy and the model
are imported by the modules that need them, never by this package.
"""
