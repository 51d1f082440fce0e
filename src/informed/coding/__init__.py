"""Input columns turned into coded labels: the one spelling of each argument
(`informed.coding.arguments`), the columns of frames and Arrow data
(`informed.coding.columns`), what text can be a label (`informed.coding.label_text`),
coding by hashing (`informed.coding.hashing`), and label kinds, the canonical order and
the coding of a column of labels (`informed.coding.labels`). Every summary is counted
from the codes these give; nothing here knows a measure.
"""
