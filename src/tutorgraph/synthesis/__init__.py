"""Synthesis: a cited answer for a tutor, written by a chat model from a packet's context."""
