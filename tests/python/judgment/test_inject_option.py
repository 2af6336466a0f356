"""Which option a past answer chose (judgment.inject.option_of; docs/claude-kit.md, "What the
person sees"): the hook's note goes on that option only when one option alone is it, else
under the question. Judgment Ledger v1, "Recall into Decision Cards": the answer as recorded."""
import pytest

from judgment_toolkit.judgment import inject


@pytest.mark.parametrize("answer, labels, chosen", [
    # the answer's words within one label, as themselves or through the lexicon
    ("SQS", ["Postgres (SKIP LOCKED)", "Amazon SQS", "Redis Streams"], "Amazon SQS"),
    ("가맹점 현지 시간", ["UTC", "Merchant local time"], "Merchant local time"),
    ("self-hosted Unleash", ["LaunchDarkly", "Unleash (자체 호스팅)", "직접 구현"], "Unleash (자체 호스팅)"),
    # a word of a change is not a word of the answer
    ("Detox로 전환", ["Maestro", "Detox", "Appium"], "Detox"),
    ("move to ECharts", ["Recharts", "ECharts", "Chart.js"], "ECharts"),
    # a quantity one label offers, in another language or spelling
    ("5회, 24시간 안에 끝나게", ["8x / 3 days", "5x / 24h", "3x / 1h"], "5x / 24h"),
    ("every 30 days, Vault dynamic secrets", ["30일", "90일", "안 함"], "30일"),
    # a number without a unit, with every word of the label that names something
    ("올린다, iOS 17 이상", ["iOS 16", "iOS 17", "iOS 18"], "iOS 17"),
])
def test_the_one_option_an_answer_chose(answer, labels, chosen):
    assert inject.option_of(answer, labels) == [chosen]


@pytest.mark.parametrize("answer, labels", [
    # the answer says more than any label: the negated label is not the answer
    ("캐시함, lockfile 해시를 키로", ["Cache the pnpm store", "Cache node_modules", "No cache"]),
    ("통일한다: 되돌리기 토스트 없애고 삭제·보관 모두 확인 모달",
     ["Confirmation modal", "Undo toast", "Modal for delete, toast for archive"]),
    # two options' quantities: no one option
    ("1명, 네이티브 코드 변경은 2명", ["1명", "2명"]),
    ("매출 대시보드만 15분, 나머지는 1시간 유지", ["15분", "1시간", "하루 1회"]),
    # a number in a name is no quantity of a label whose other words the answer lacks
    ("KCD-8 (ICD-10 기반), FHIR에서는 ICD-10 매핑 병기", ["FHIR Consent + KCD", "PDF + ICD-10"]),
    # nothing of the options
    ("SQS", ["Redis", "Postgres"]),
    ("", ["Redis", "Postgres"]),
])
def test_no_option_when_none_or_several_could_be_it(answer, labels):
    assert inject.option_of(answer, labels) == []
