"""Misconception diagnosis: bug rules that reproduce a student's wrong answer."""
