"""Unit tests of the Python adapter (standard library unittest). From the kit's root:

    python3 -m unittest discover -s adapters/python/tests -t adapters/python
"""
