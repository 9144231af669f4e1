"""Names of the countries we list in the shop, by ISO 3166-1 alpha-2 code."""

COUNTRY_NAMES = {
    "AT": "Austria", "BE": "Belgium", "DE": "Germany", "DK": "Denmark", "ES": "Spain",
    "FR": "France", "GB": "United Kingdom", "IS": "Iceland", "IT": "Italy",
    "NL": "Netherlands", "NO": "Norway", "PL": "Poland", "SE": "Sweden",
    "CH": "Switzerland", "US": "United States", "CA": "Canada", "JP": "Japan",
}


def country_name(code):
    return COUNTRY_NAMES.get(code.upper(), code.upper())
