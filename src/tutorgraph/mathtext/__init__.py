"""Math written as text: LaTeX and MathML to plain text, and the math spans of a message.

Used by ingest (source texts), refinement (student messages) and diagnosis (problems);
it imports no other tutorgraph package.
"""
