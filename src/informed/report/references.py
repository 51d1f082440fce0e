"""The works the reports cite: each short author-year citation and its full reference.

The registries cite their sources in short form ("Powers (2003)", "Arbel & Rokach
(2006), eq. 12"); a report lists in full the works it cites, read from `REFERENCES`. The
same list, with the works the documentation cites besides, is docs/references.md (a test
checks that every entry here is there, word for word).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["REFERENCES", "cited", "references_of"]

REFERENCES: dict[str, str] = {
    "Alpaydin (1999)": (
        "Alpaydin, E. (1999). Combined 5 x 2 cv F test for comparing supervised "
        "classification learning algorithms. Neural Computation 11(8):1885-1892."
    ),
    "Arbel & Rokach (2006)": (
        "Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources. "
        "Pattern Recognition Letters 27(14):1619-1631."
    ),
    "Bates et al. (2023)": (
        "Bates, S., Hastie, T. & Tibshirani, R. (2023). Cross-validation: what does it "
        "estimate and how well does it do it? Journal of the American Statistical "
        "Association 119(546):1434-1445."
    ),
    "Cohen (1960)": (
        "Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and "
        "Psychological Measurement 20(1):37-46."
    ),
    "Cover & Thomas (1991)": (
        "Cover, T. M. & Thomas, J. A. (1991). Elements of Information Theory. Wiley, New York."
    ),
    "Cox (1958)": (
        "Cox, D. R. (1958). Two further applications of a model for binary regression. "
        "Biometrika 45(3-4):562-565."
    ),
    "DeLong et al. (1988)": (
        "DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the areas "
        "under two or more correlated receiver operating characteristic curves: a "
        "nonparametric approach. Biometrics 44(3):837-845."
    ),
    "Dietterich (1998)": (
        "Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised "
        "classification learning algorithms. Neural Computation 10(7):1895-1923."
    ),
    "Dimitriadis et al. (2021)": (
        "Dimitriadis, T., Gneiting, T. & Jordan, A. I. (2021). Stable reliability diagrams "
        "for probabilistic classifiers. Proceedings of the National Academy of Sciences "
        "118(8):e2016191118."
    ),
    "Efron (1987)": (
        "Efron, B. (1987). Better bootstrap confidence intervals. Journal of the American "
        "Statistical Association 82(397):171-185."
    ),
    "Efron & Tibshirani (1993)": (
        "Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & "
        "Hall, New York."
    ),
    "Gorodkin (2004)": (
        "Gorodkin, J. (2004). Comparing two K-category assignments by a K-category "
        "correlation coefficient. Computational Biology and Chemistry 28(5-6):367-374."
    ),
    "Hardt et al. (2016)": (
        "Hardt, M., Price, E. & Srebro, N. (2016). Equality of opportunity in supervised "
        "learning. Advances in Neural Information Processing Systems 29."
    ),
    "Holm (1979)": (
        "Holm, S. (1979). A simple sequentially rejective multiple test procedure. "
        "Scandinavian Journal of Statistics 6(2):65-70."
    ),
    "Kerr et al. (2016)": (
        "Kerr, K. F., Brown, M. D., Zhu, K. & Janes, H. (2016). Assessing the clinical "
        "impact of risk prediction models with decision curves: guidance for correct "
        "interpretation and appropriate use. Journal of Clinical Oncology 34(21):2534-2540."
    ),
    "Matthews (1975)": (
        "Matthews, B. W. (1975). Comparison of the predicted and observed secondary "
        "structure of T4 phage lysozyme. Biochimica et Biophysica Acta 405(2):442-451."
    ),
    "McNemar (1947)": (
        "McNemar, Q. (1947). Note on the sampling error of the difference between "
        "correlated proportions or percentages. Psychometrika 12(2):153-157."
    ),
    "Nadeau & Bengio (2003)": (
        "Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine "
        "Learning 52(3):239-281."
    ),
    "Powers (2003)": (
        "Powers, D. M. W. (2003). Recall and Precision versus the Bookmaker. Proceedings of "
        "the International Conference on Cognitive Science (ICCS 2003), Sydney."
    ),
    "Powers (2011)": (
        "Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC, "
        "informedness, markedness and correlation. Journal of Machine Learning "
        "Technologies 2(1):37-63."
    ),
    "Powers (n.d.)": "Powers, D. M. W. (n.d.). The Bookmaker tests your Edge. Poster.",
    "Price & Bonett (2004)": (
        "Price, R. M. & Bonett, D. G. (2004). An improved confidence interval for a linear "
        "function of binomial proportions. Computational Statistics & Data Analysis "
        "45(3):449-456."
    ),
    "Provost & Fawcett (2001)": (
        "Provost, F. & Fawcett, T. (2001). Robust classification for imprecise "
        "environments. Machine Learning 42(3):203-231."
    ),
    "Vickers & Elkin (2006)": (
        "Vickers, A. J. & Elkin, E. B. (2006). Decision curve analysis: a novel method for "
        "evaluating prediction models. Medical Decision Making 26(6):565-574."
    ),
    "Wilson (1927)": (
        "Wilson, E. B. (1927). Probable inference, the law of succession, and statistical "
        "inference. Journal of the American Statistical Association 22(158):209-212."
    ),
    "Williams (n.d.)": (
        "Williams, K. (n.d.). Statistics::Contingency 0.09: calculate precision, recall, "
        "F1, accuracy, etc. Perl module, CPAN."
    ),
}
"""Short citation -> full reference, for every work a report cites."""

_CITATION = re.compile(r"[A-Z][A-Za-z&. -]*? \((?:\d{4}|n\.d\.)\)")


def cited(text: str) -> list[str]:
    """The short citations in `text`, in order ("Matthews (1975); Gorodkin (2004)" gives
    both).

    >>> cited("Arbel & Rokach (2006), eq. 12; Provost & Fawcett (2001)")
    ['Arbel & Rokach (2006)', 'Provost & Fawcett (2001)']
    """
    return _CITATION.findall(text)


def references_of(sources: Iterable[str]) -> list[str]:
    """The full references of every work cited in `sources`, once each, sorted."""
    keys = {key for source in sources for key in cited(source)}
    return sorted(REFERENCES[key] for key in keys if key in REFERENCES)
