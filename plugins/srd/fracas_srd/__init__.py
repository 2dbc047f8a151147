"""d20 fantasy combat (SRD 5.1, CC-BY-4.0) for fracas: a ruleset shipped as a plugin.

This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") by
Wizards of the Coast LLC, licensed under CC-BY-4.0.
"""
