"""The core: what feedtui does, behind the API its front ends call."""
