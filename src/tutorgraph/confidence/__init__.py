"""Calibrated confidence: whether a message is in scope, and how far each slot of its
packet can be trusted (`scope.ScopeModel`, fitted by `logistic.Logistic`)."""

from tutorgraph.confidence.logistic import Logistic
from tutorgraph.confidence.scope import SCOPE_MODEL_FILE, ScopeModel, ScopeSignals

__all__ = ["SCOPE_MODEL_FILE", "Logistic", "ScopeModel", "ScopeSignals"]
