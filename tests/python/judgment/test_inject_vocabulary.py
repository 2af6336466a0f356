"""Recall for automatic injection across the ways teams write (docs/judgment-ledger.md, "Recall
for automatic injection", "Vocabulary"): casual Korean spellings and loanwords find the English
decision, abbreviations find the full word, through the packaged lexicon's general groups; a
lexicon alternative counts only when a record holds the whole entry. Real ledgers in tmp_path."""
import pytest

from judgment_toolkit.judgment import inject, lexicon, rank
from ledger_helpers import write_records


def decision(rid, question, answer, rationale="", tags=()):
    return {"id": rid, "project": "team", "decided_at": "2025-05-01T10:00:00Z", "question": question,
            "answer": answer, "rationale": rationale, "card_ref": f"cards/{rid}.json", "tags": list(tags)}


def ledger_of(tmp_path, records):
    """The path of a ledger holding these records (each block's fixture below)."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, records)
    return str(path)


TEAM = [
    decision("redis", "How long should the Redis session cache keep entries?", "24 hours"),
    decision("k8s", "Should the workers run on Kubernetes or on plain VMs?", "Kubernetes"),
    decision("prod-db", "Who may run ad-hoc queries against the production database?", "on-call only"),
    decision("kafka", "Which partition key should the Kafka order events use?", "order id"),
    decision("perms", "Where do we check permissions for admin endpoints?", "in the API gateway"),
    decision("github", "Should GitHub Actions run the integration tests on every push?", "only on PRs"),
    decision("deps", "How often do we update third-party dependencies?", "weekly, by a bot"),
    decision("orchestration", "Which orchestration tool runs the nightly pipelines?", "Airflow"),
]


@pytest.fixture
def team(tmp_path):
    return ledger_of(tmp_path, TEAM)


@pytest.mark.parametrize("question, expected", [
    ("레디스 세션 캐시 만료는 얼마로?", "redis"),  # a loanword spelled in Hangul
    ("워커는 쿠버에 올릴까 VM에 둘까?", "k8s"),  # the casual short name
    ("카프카 주문 이벤트 파티션 키는 뭘로?", "kafka"),
    ("깃헙 액션에서 통합 테스트는 푸시마다 돌려?", "github"),
])
def test_a_casual_korean_question_finds_the_english_decision(team, question, expected):
    assert [a["record"]["id"] for a in inject.answers(team, "team", question)] == [expected]


@pytest.mark.parametrize("question, expected", [
    ("who can run adhoc queries on prod db?", "prod-db"),  # terse: abbreviations, no article
    ("k8s or vms for the workers?", "k8s"),
    ("admin endpoint perms checked where", "perms"),
    ("how often update deps", "deps"),
])
def test_an_abbreviation_finds_the_full_word(team, question, expected):
    assert [a["record"]["id"] for a in inject.answers(team, "team", question)] == [expected]


def test_without_the_groups_the_casual_spelling_finds_nothing(team, tmp_path):
    """The groups do the work: the English record shares no word with the Hangul spelling."""
    terms = set(rank.terms("레디스 세션 캐시 만료는 얼마로?"))
    assert not terms & set(rank.terms(TEAM[0]["question"]))
    assert "redi" in lexicon.load().expand(rank.terms("레디스"))
    assert "kubernet" in lexicon.load().expand(rank.terms("쿠버"))
    # "prod" needs no group: production's own term is prod (analysis._APART)
    assert rank.terms("production") == rank.terms("prod")


def test_a_piece_of_a_long_korean_entry_is_not_its_word(tmp_path):
    """오케스트레이션 is five 2-character pieces; a record holding only 이션 (of 마이그레이션)
    does not hold "orchestration" for the rule."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, [decision("migration", "마이그레이션은 언제 돌릴까?", "배포 직후")])
    query = inject.Query("Which orchestration tool?", (), None)
    assert "이션" in query.alternatives  # the piece is searched for ...
    assert inject._reached(query.entries, {"마이", "이그", "그레", "레이", "이션"}) == set()  # ... but not a match
    assert inject.answers(str(path), "team", "Which orchestration tool?") == []


def test_every_packaged_group_parses_and_links_both_languages_for_the_new_products():
    groups = lexicon.load().groups()
    assert len(groups) >= 1000
    for english, korean in (("postgres", "포스트그레스"), ("github", "깃헙"), ("terraform", "테라폼"),
                            ("notification", "노티"), ("production environment", "운영 환경")):
        added = lexicon.load().expand(rank.terms(korean))
        assert set(rank.terms(english)) <= set(added), (english, korean)


GENERAL = [
    decision("signing", "Sign webhooks with HMAC or with asymmetric keys?", "HMAC-SHA256"),
    decision("attempts", "How many attempts for a failed payment?", "3, a day apart"),
    decision("raw", "Keep the raw events for how long?", "13 months"),
    decision("launch", "Which languages at launch?", "Korean and English"),
    decision("login", "Sign in with Google for the console?", "yes, SSO only"),
]


@pytest.mark.parametrize("question, expected", [
    ("웹훅 서명은 대칭키로 할까 비대칭키로 할까?", "signing"),
    ("결제 실패하면 시도 횟수 몇 번까지?", "attempts"),
    ("원시 이벤트 얼마동안 들고 있음?", "raw"),
    ("런칭 때 언어 뭐뭐 들어감?", "launch"),
])
def test_general_korean_words_find_the_english_decision(tmp_path, question, expected):
    """The packaged lexicon's general vocabulary (templates/lexicon.txt): 서명 is a signature,
    비대칭키 an asymmetric key, 횟수 attempts, 원시 raw, 얼마동안 how long, 런칭 launch; the
    question shares no term with the decision, and a login decision ("sign in") is no
    signature."""
    found = inject.answers(ledger_of(tmp_path, GENERAL), "team", question)
    assert [a["record"]["id"] for a in found] == [expected]


# General words of questions and decisions (templates/lexicon.txt, the groups after "general
# vocabulary of questions and decisions"): Korean nouns and verb stems against English, in
# both directions. Each question shares no term with its decision: only these groups link them.
EVERYDAY = [
    decision("trash", "How long do items stay in the trash bin?", "30 days"),
    decision("invite", "Who can send invitations to a workspace?", "admins only"),
    decision("sequence", "Process webhook events sequentially or in parallel?", "sequentially"),
    decision("pause", "Can a subscriber pause a subscription?", "up to 3 months"),
    decision("weekday", "Ship releases on business days only?", "Monday to Thursday"),
    decision("dormant", "When does an inactive account become dormant?", "after a year"),
    decision("quantity", "Maximum quantity per order line?", "99"),
    decision("wiki", "Where do runbooks live: the wiki or the repo?", "the repo"),
    decision("nickname", "Must display names be unique?", "no, handles are"),
    decision("rating", "별점 평균은 소수점 몇 자리까지 보여줄까?", "한 자리"),
    decision("history", "결제 내역은 몇 년 치 보여줄까?", "5년"),
    decision("vacation", "연차는 누가 승인해?", "팀장"),
    # lures: a word that shares a stem or a Hangul piece with a new entry, another meaning
    decision("objective", "What is the quarterly objective of the platform team?", "cut build time"),
    decision("installment", "Allow installment payments on cards?", "over 50,000 KRW"),
    decision("price", "Show prices with tax included?", "yes"),
    decision("receipt", "Send a receipt email after checkout?", "yes"),
]


@pytest.fixture
def everyday(tmp_path):
    return ledger_of(tmp_path, EVERYDAY)


@pytest.mark.parametrize("question, expected", [
    ("휴지통 보관 기간은?", "trash"),  # 휴지통 trash bin
    ("워크스페이스 초대는 누가 보낼 수 있어?", "invite"),  # 초대 invitation, 보낼 send
    ("웹훅 이벤트 순차 처리?", "sequence"),  # 순차 sequential
    ("구독 일시정지 가능?", "pause"),  # 일시정지 pause
    ("배포는 평일에만?", "weekday"),  # 평일 business days
    ("휴면 계정 전환 기준?", "dormant"),  # 휴면 dormant
    ("주문 수량 최대?", "quantity"),  # 수량 quantity
    ("런북은 위키에 둘까?", "wiki"),  # 위키 wiki
    ("닉네임은 유일해야 해?", "nickname"),  # 닉네임 display name
    ("How many decimals for the average star rating?", "rating"),  # star rating 별점
    ("How far back does the payment history go?", "history"),  # history 내역
    ("Who approves PTO?", "vacation"),  # PTO 연차
])
def test_everyday_words_link_korean_and_english(everyday, question, expected):
    record = next(r for r in EVERYDAY if r["id"] == expected)
    assert not set(rank.terms(question)) & set(rank.terms(record["question"] + " " + record["answer"]))
    assert [a["record"]["id"] for a in inject.answers(everyday, "team", question)] == [expected]


@pytest.mark.parametrize("question", [
    "객체 지향으로 짤까?",  # 객체 is an object of code; "objective" has the same English stem
    "앱 설치 용량은 얼마까지?",  # 설치 is installing; "installment" stems as "install" does
    "API 키가 노출되면 어떻게?",  # 노출 of a secret is exposure, not showing a price
    "로그를 내보내기 할까?",  # 내보내기 is export: its piece 보내 is not "send"
])
def test_an_entry_does_not_reach_a_word_of_another_meaning(everyday, question):
    """The groups keep apart what only looks alike: an English stem shared by two meanings, a
    Korean word with two senses, a 2-character piece of a longer word."""
    assert inject.answers(everyday, "team", question) == []


# The vocabulary of more software domains (templates/lexicon.txt, from "search and e-commerce"
# on): search, healthcare, developer tools, education, logistics, lending, IoT, media, HR,
# travel, real estate, advertising, support, experiments, localisation, legal and docs. Each
# question shares no term with its decision: only the domain's group links the two languages.
DOMAINS = [
    decision("spelling", "Apply spelling correction only when a query has zero results?", "yes"),
    decision("facet", "패싯 필터는 몇 개까지 보여줄까?", "여섯 개"),
    decision("prescription", "처방전 재발급은 누가 승인해?", "담당 의료진"),
    decision("stack", "Include stack traces in API error responses?", "never in production"),
    decision("quiz", "Do instructors author the quizzes?", "yes, TAs review them"),
    decision("courier", "택배사는 어디로 할까?", "두 곳"),
    decision("delinquent", "When is a loan marked delinquent?", "30 days past due"),
    decision("battery", "What battery drain is acceptable for the tracker app?", "2% an hour"),
    decision("autoplay", "Autoplay the next episode?", "yes, after 10 seconds"),
    decision("payroll", "급여 정산은 매월 며칠에?", "25일"),
    decision("overbooking", "Allow overbooking of hotel rooms?", "no"),
    decision("deposit", "How soon is a security deposit returned?", "within 7 days"),
    decision("csat", "Send the CSAT survey after every ticket?", "only after closed ones"),
    decision("control", "How big is the control group?", "10% of users"),
    decision("rtl", "Mirror the layout for right-to-left scripts?", "yes"),
    decision("dsar", "정보주체 열람 요구는 며칠 안에 처리해?", "10일"),
    # lures: a word that holds a piece or a stem of a new entry, of another meaning
    decision("feed", "Order the news feed by recency?", "yes"),
    decision("coverage", "What does insurance coverage include on the basic plan?", "outpatient care"),
    decision("sales", "Should the sales team see support tickets?", "read-only"),
    decision("exam", "Can students retake an exam?", "once"),
]


@pytest.fixture
def domains(tmp_path):
    return ledger_of(tmp_path, DOMAINS)


@pytest.mark.parametrize("question, expected", [
    ("오타 교정은 언제 해?", "spelling"),  # 오타 교정 spelling correction
    ("Which facets do we show?", "facet"),  # facet 패싯
    ("Who approves prescriptions?", "prescription"),  # prescription 처방전
    ("스택 트레이스는 어디까지 포함해?", "stack"),  # 스택 트레이스 stack trace
    ("퀴즈는 강사가 만들어?", "quiz"),  # 퀴즈 quiz, 강사 instructor
    ("Which courier should ship orders?", "courier"),  # courier 택배사
    ("대출 연체 기준은?", "delinquent"),  # 대출 loan, 연체 delinquent
    ("배터리 소모는 얼마까지 괜찮아?", "battery"),  # 배터리 소모 battery drain
    ("다음 회차 자동 재생?", "autoplay"),  # 자동 재생 autoplay, 회차 episode
    ("When does payroll run?", "payroll"),  # payroll 급여 정산
    ("초과 예약 허용해?", "overbooking"),  # 초과 예약 overbooking
    ("보증금 반환은 언제 해?", "deposit"),  # 보증금 security deposit
    ("고객 만족도 설문은 언제?", "csat"),  # 고객 만족도 CSAT
    ("대조군 비율은?", "control"),  # 대조군 control group
    ("오른쪽에서 왼쪽 언어의 레이아웃은?", "rtl"),  # 오른쪽에서 왼쪽 right-to-left
    ("What is the DSAR deadline in days?", "dsar"),  # DSAR 정보주체 열람 요구
])
def test_domain_words_link_korean_and_english(domains, question, expected):
    record = next(r for r in DOMAINS if r["id"] == expected)
    assert not set(rank.terms(question)) & set(rank.terms(record["question"] + " " + record["answer"]))
    assert [a["record"]["id"] for a in inject.answers(domains, "team", question)] == [expected]


@pytest.mark.parametrize("question", [
    "피드백은 어디에 모아?",  # 피드백 is feedback: its piece 피드 is no news feed
    "메시지 순서 보장이 필요해?",  # 보장 of an order is a guarantee, not insurance coverage
    "환불은 영업일 기준 며칠 안에?",  # 영업일 is a business day: its piece 영업 is no sales team
    "시험적으로 먼저 써 볼까?",  # 시험적 is "as a trial", not an exam
    "검색 인덱스 재생성은 언제?",  # 재생성 is regenerating: its piece 재생 is no playback
])
def test_a_domain_entry_does_not_reach_a_word_of_another_meaning(domains, question):
    assert inject.answers(domains, "team", question) == []


# Everyday wording (templates/lexicon.txt, "everyday wording" and the groups it extends): a
# near-synonym or a plain description of the recorded term, in either language. Each question
# shares no term with its decision, and the lexicon before these groups found none of them.
WORDING = [
    decision("customer", "고객 등급은 몇 단계?", "셋"),
    decision("impersonate", "Can admins impersonate users?", "with an audit log entry"),
    decision("offline", "Must the mobile app work offline?", "yes, uploads wait in a queue"),
    decision("timeout", "Timeout for webhook deliveries?", "10 seconds"),
    decision("plagiarism", "How do we detect plagiarism?", "similarity over 40%"),
    decision("battery", "How much battery drain is acceptable for background sync?", "1% an hour"),
    decision("concurrency", "Maximum concurrency for report exports?", "4 per tenant"),
    decision("lockout", "When does an account lockout happen?", "after 5 failed logins"),
    decision("hardcoded", "Are hardcoded URLs allowed?", "only in tests"),
    decision("worker", "How many workers read the email queue?", "3"),
    decision("stale", "가격 정보 최신성은 어느 정도면 돼?", "5분 이내"),
    decision("double", "중복 결제는 어떻게 막아?", "멱등 키"),
    decision("invite", "사용자 초대 한도는?", "50명"),
    decision("birthday", "Date of birth required at signup?", "no, only an age check"),
    decision("passwordless", "Do we support passwordless login?", "email only"),
    decision("replica", "What replication latency is acceptable?", "under 2 seconds"),
    decision("sleep", "절전 모드 진입 조건은?", "5분 무입력"),
    decision("hang", "앱 먹통 신고는 어떻게 처리해?", "재시작 안내"),
    # lures: a word that looks like a new entry's but means another thing
    decision("follow-up", "Who owns the follow-up items of a postmortem?", "the incident lead"),
    decision("kids", "Can kids sign up without a parent?", "no"),
    decision("install", "Show a guide after a fresh install?", "yes"),
    decision("digest", "Send a weekly email digest?", "yes, on Mondays"),
]


@pytest.fixture
def wording(tmp_path):
    return ledger_of(tmp_path, WORDING)


@pytest.mark.parametrize("question, expected", [
    ("How many member tiers?", "customer"),  # member 고객 (customer joins user)
    ("운영자가 대리 로그인 할 수 있어?", "impersonate"),  # 운영자 admin, 대리 로그인 impersonate
    ("모바일 앱은 네트워크 끊김에도 돼야 해?", "offline"),  # 네트워크 끊김 offline
    ("웹훅 전송 제한 시간은?", "timeout"),  # 제한 시간 timeout
    ("베낀 거 어떻게 탐지해?", "plagiarism"),  # 베낀 plagiarism
    ("백그라운드 동기화 배터리 수명 영향은 어디까지 허용?", "battery"),  # 배터리 수명 battery drain
    ("리포트 내보내기 동시 실행은 몇 개까지?", "concurrency"),  # 동시 실행 concurrency
    ("계정 잠금은 언제 걸려?", "lockout"),  # 계정 잠금 account lockout
    ("링크 주소를 하드코딩해도 돼?", "hardcoded"),  # 하드코딩 hardcoded
    ("이메일 큐 컨슈머는 몇 개?", "worker"),  # 컨슈머 worker (consumer joins worker)
    ("How stale may prices get?", "stale"),  # stale 최신성
    ("How do we avoid a double charge?", "double"),  # double charge 중복 결제
    ("How many members can be invited?", "invite"),  # member 사용자
    ("Do we ask for a birthday at registration?", "birthday"),  # birthday date of birth
    ("Offer magic link authentication?", "passwordless"),  # magic link passwordless
    ("How much replica lag is OK?", "replica"),  # lag latency
    ("When does power saving kick in?", "sleep"),  # power saving 절전 모드
])
def test_everyday_wording_finds_the_recorded_term(wording, question, expected):
    record = next(r for r in WORDING if r["id"] == expected)
    assert not set(rank.terms(question)) & set(rank.terms(record["question"] + " " + record["answer"]))
    assert [a["record"]["id"] for a in inject.answers(wording, "team", question)] == [expected]


@pytest.mark.parametrize("question", [
    "팔로워 수를 보여줄까?",  # a follower is no follow-up: the group's English entry is a phrase
    "Pass children through props?",  # children of a component are no kids
    "데이터 신선도 기준은?",  # freshness of data is no fresh install
    "메시지 다이제스트 알고리즘은?",  # a message digest is a hash, no email digest
    "절전 말고 정전 대비는?",  # a power outage is no power saving
])
def test_an_everyday_entry_does_not_reach_a_word_of_another_meaning(wording, question):
    assert inject.answers(wording, "team", question) == []
