"""The stage: the records a producer sends (``contract``), the producers' base (``producer``), the
component that draws them (``component``, ``assets/``) and server-made HTML sent as element trees
(``markup``).

The lowest part of ``shared``: it imports nothing else from the UI.
"""
