<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name>hearth::app::EngineHost</name>
    <message>
        <source>Loading was cancelled.</source>
        <translation>불러오기를 취소했습니다.</translation>
    </message>
</context>
<context>
    <name>hearth::app::EngineLoader</name>
    <message>
        <source>Loading was cancelled.</source>
        <translation>불러오기를 취소했습니다.</translation>
    </message>
</context>
<context>
    <name>hearth::ui::ChatMessageWidget</name>
    <message numerus="yes">
        <source>%n prompt token(s)</source>
        <translation>
            <numerusform>프롬프트 토큰 %n개</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>토큰 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation>초당 %1토큰</translation>
    </message>
    <message>
        <source>generating…</source>
        <translation>생성 중…</translation>
    </message>
    <message>
        <source>stopped at the length limit</source>
        <translation>길이 제한에서 멈춤</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>멈춤</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>You</source>
        <translation>나</translation>
    </message>
    <message>
        <source>System</source>
        <translation>시스템</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>어시스턴트</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>편집</translation>
    </message>
    <message>
        <source>Edit this message and send it again (the replies after it are replaced)</source>
        <translation>이 메시지를 고쳐 다시 보냅니다 (뒤의 답변은 새로 만들어집니다)</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
</context>
<context>
    <name>hearth::ui::ChatPage</name>
    <message>
        <source>Rename chat</source>
        <translation>대화 이름 바꾸기</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>제목:</translation>
    </message>
    <message>
        <source>The reply failed: %1</source>
        <translation>답변에 실패했습니다: %1</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>대화</translation>
    </message>
    <message>
        <source>Search chats</source>
        <translation>대화 검색</translation>
    </message>
    <message>
        <source>New</source>
        <translation>새로 만들기</translation>
    </message>
    <message>
        <source>New chat (Ctrl+N)</source>
        <translation>새 대화 (Ctrl+N)</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>이름 바꾸기</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>삭제</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>설정…</translation>
    </message>
    <message>
        <source>System prompt and sampling for this chat</source>
        <translation>이 대화의 시스템 프롬프트와 샘플링 설정</translation>
    </message>
    <message>
        <source>Open the library</source>
        <translation>라이브러리 열기</translation>
    </message>
    <message>
        <source>Cancel edit</source>
        <translation>편집 취소</translation>
    </message>
    <message>
        <source>Write a message. Ctrl+Enter sends it.</source>
        <translation>메시지를 입력하세요. Ctrl+Enter로 보냅니다.</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>보내기</translation>
    </message>
    <message>
        <source>Send (Ctrl+Enter)</source>
        <translation>보내기 (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>멈추기</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>답변 멈추기 (Esc)</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>다시 생성</translation>
    </message>
    <message>
        <source>Untitled chat</source>
        <translation>제목 없는 대화</translation>
    </message>
    <message>
        <source>No chat selected</source>
        <translation>선택한 대화 없음</translation>
    </message>
    <message>
        <source>Editing a message: sending replaces it and every message after it.</source>
        <translation>메시지 편집 중: 보내면 이 메시지와 그 뒤의 모든 메시지가 바뀝니다.</translation>
    </message>
    <message>
        <source>The chat history could not be opened, so chats cannot be saved.</source>
        <translation>대화 기록을 열 수 없어 대화를 저장할 수 없습니다.</translation>
    </message>
    <message>
        <source>A model is loading…</source>
        <translation>모델을 불러오는 중…</translation>
    </message>
    <message>
        <source>No model is loaded. Load one from the library to chat.</source>
        <translation>불러온 모델이 없습니다. 대화하려면 라이브러리에서 모델을 불러오세요.</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>새 대화</translation>
    </message>
    <message>
        <source>Could not create a chat: %1</source>
        <translation>대화를 만들 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Could not rename the chat: %1</source>
        <translation>대화 이름을 바꿀 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Delete chat</source>
        <translation>대화 삭제</translation>
    </message>
    <message>
        <source>Delete &quot;%1&quot; and all its messages?</source>
        <translation>&quot;%1&quot; 대화와 모든 메시지를 삭제할까요?</translation>
    </message>
    <message>
        <source>Could not delete the chat: %1</source>
        <translation>대화를 삭제할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Could not send: %1</source>
        <translation>보낼 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Could not regenerate: %1</source>
        <translation>다시 생성할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Could not read the chat: %1</source>
        <translation>대화를 읽을 수 없습니다: %1</translation>
    </message>
    <message numerus="yes">
        <source>The %n oldest message(s) no longer fit the model&apos;s context and were left out of this reply.</source>
        <translation>
            <numerusform>오래된 메시지 %n개가 모델의 컨텍스트에 들어가지 않아 이번 답변에서는 빠졌습니다.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hearth::ui::ChatTemplateDialog</name>
    <message>
        <source>Chat template: %1</source>
        <translation>채팅 템플릿: %1</translation>
    </message>
    <message>
        <source>This model uses the chat template in its file. Edit it here to use your own.</source>
        <translation>이 모델은 파일에 들어 있는 채팅 템플릿을 사용합니다. 직접 만든 템플릿을 쓰려면 여기에서 편집하세요.</translation>
    </message>
    <message>
        <source>This model uses your chat template instead of the one in its file.</source>
        <translation>이 모델은 파일의 템플릿 대신 사용자가 지정한 채팅 템플릿을 사용합니다.</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>저장</translation>
    </message>
    <message>
        <source>Use the model&apos;s own</source>
        <translation>모델 기본 템플릿 사용</translation>
    </message>
    <message>
        <source>This template does not parse: %1</source>
        <translation>템플릿을 해석할 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>hearth::ui::ConversationListModel</name>
    <message>
        <source>Untitled chat</source>
        <translation>제목 없는 대화</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s), updated %1</source>
        <translation>
            <numerusform>메시지 %n개, %1에 수정</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hearth::ui::ConversationSettingsDialog</name>
    <message>
        <source>Chat settings</source>
        <translation>대화 설정</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>시스템 프롬프트</translation>
    </message>
    <message>
        <source>Temperature (0 = always the likeliest word)</source>
        <translation>온도 (0 = 항상 가장 그럴듯한 단어)</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Top-k (0 = off)</source>
        <translation>Top-k (0 = 끔)</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Repeat penalty (1 = off)</source>
        <translation>반복 페널티 (1 = 끔)</translation>
    </message>
    <message>
        <source>Longest reply (tokens)</source>
        <translation>최대 답변 길이 (토큰)</translation>
    </message>
    <message>
        <source>Seed (-1 = random)</source>
        <translation>시드 (-1 = 무작위)</translation>
    </message>
</context>
<context>
    <name>hearth::ui::DashboardPage</name>
    <message>
        <source>Dashboard</source>
        <translation>대시보드</translation>
    </message>
    <message>
        <source>Memory per device (GiB)</source>
        <translation>장치별 메모리 (GiB)</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>가중치</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 캐시</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>기타</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>여유</translation>
    </message>
    <message>
        <source>Tokens per second</source>
        <translation>초당 토큰</translation>
    </message>
    <message>
        <source>Prefill</source>
        <translation>프리필</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>디코드</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>요청</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>대기 중</translation>
    </message>
    <message>
        <source>Cache and speculation (%)</source>
        <translation>캐시와 추측 디코딩 (%)</translation>
    </message>
    <message>
        <source>Prefix-cache hits</source>
        <translation>프리픽스 캐시 적중</translation>
    </message>
    <message>
        <source>RAM-tier hits</source>
        <translation>RAM 계층 적중</translation>
    </message>
    <message>
        <source>Draft acceptance</source>
        <translation>초안 수락률</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>초</translation>
    </message>
    <message>
        <source>CPU (system RAM)</source>
        <translation>CPU (시스템 RAM)</translation>
    </message>
    <message>
        <source>No model is loaded. Load one from the Library to see live figures.</source>
        <translation>불러온 모델이 없습니다. 실시간 수치를 보려면 라이브러리에서 모델을 불러오세요.</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>모델: %1</translation>
    </message>
    <message>
        <source>Prefill %1 tok/s · decode %2 tok/s · running %3 · waiting %4 · prefix-cache hits %5 · draft acceptance %6</source>
        <translation>프리필 초당 %1토큰 · 디코드 초당 %2토큰 · 실행 %3 · 대기 %4 · 프리픽스 캐시 적중 %5 · 초안 수락 %6</translation>
    </message>
</context>
<context>
    <name>hearth::ui::DesktopServices</name>
    <message>
        <source>Cannot create the data folder %1.</source>
        <translation>데이터 폴더 %1을(를) 만들 수 없습니다.</translation>
    </message>
    <message>
        <source>The model library could not be opened: %1</source>
        <translation>모델 라이브러리를 열 수 없습니다: %1</translation>
    </message>
    <message>
        <source>The chat history could not be opened: %1</source>
        <translation>대화 기록을 열 수 없습니다: %1</translation>
    </message>
    <message>
        <source>The API server could not start: %1</source>
        <translation>API 서버를 시작할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>The download queue could not be opened: %1</source>
        <translation>다운로드 대기열을 열 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>hearth::ui::DiscoverPage</name>
    <message>
        <source>Discover</source>
        <translation>찾아보기</translation>
    </message>
    <message>
        <source>Find models on the Hugging Face hub</source>
        <translation>Hugging Face 허브에서 모델 찾기</translation>
    </message>
    <message>
        <source>Search models, e.g. &quot;qwen coder&quot; or &quot;llama 8b instruct&quot;</source>
        <translation>모델 검색, 예: &quot;qwen coder&quot;, &quot;llama 8b instruct&quot;</translation>
    </message>
    <message>
        <source>Most downloaded</source>
        <translation>다운로드 많은 순</translation>
    </message>
    <message>
        <source>Most liked</source>
        <translation>좋아요 많은 순</translation>
    </message>
    <message>
        <source>Trending</source>
        <translation>인기 급상승</translation>
    </message>
    <message>
        <source>Recently updated</source>
        <translation>최근 업데이트 순</translation>
    </message>
    <message>
        <source>GGUF only</source>
        <translation>GGUF만</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>검색</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>다운로드</translation>
    </message>
    <message>
        <source>Set access token…</source>
        <translation>액세스 토큰 설정…</translation>
    </message>
    <message>
        <source>Pick a model to see its files.</source>
        <translation>모델을 고르면 파일 목록이 나옵니다.</translation>
    </message>
    <message>
        <source>This repository needs a Hugging Face access token (HTTP %1). Add one in Settings.</source>
        <translation>이 저장소에는 Hugging Face 액세스 토큰이 필요합니다 (HTTP %1). 설정에서 토큰을 추가하세요.</translation>
    </message>
    <message>
        <source>The hub did not answer in time.</source>
        <translation>허브가 제시간에 응답하지 않았습니다.</translation>
    </message>
    <message>
        <source>Cannot reach the hub: %1</source>
        <translation>허브에 연결할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>The hub answered HTTP %1: %2</source>
        <translation>허브 응답 HTTP %1: %2</translation>
    </message>
    <message>
        <source>The hub sent something unexpected: %1</source>
        <translation>허브가 예상하지 못한 응답을 보냈습니다: %1</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>취소했습니다.</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>검색 중…</translation>
    </message>
    <message>
        <source>No models found.</source>
        <translation>찾은 모델이 없습니다.</translation>
    </message>
    <message numerus="yes">
        <source>%n model(s) found.</source>
        <translation>
            <numerusform>모델 %n개를 찾았습니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — reading the file list…</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — 파일 목록을 읽는 중…</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; has no GGUF files.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;에는 GGUF 파일이 없습니다.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; — %n variant(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; — 변형 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>Some parts of this split model are missing from the repository.</source>
        <translation>이 분할 모델의 일부 파일이 저장소에 없습니다.</translation>
    </message>
    <message>
        <source>Could not queue %1: %2</source>
        <translation>%1을(를) 대기열에 넣을 수 없습니다: %2</translation>
    </message>
    <message numerus="yes">
        <source>Queued %n file(s) for download.</source>
        <translation>
            <numerusform>파일 %n개를 다운로드 대기열에 넣었습니다.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hearth::ui::DownloadsModel</name>
    <message>
        <source>Queued</source>
        <translation>대기</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>다운로드 중</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>일시 정지</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>완료</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>실패: %1</translation>
    </message>
    <message>
        <source>Retrying (attempt %1)</source>
        <translation>다시 시도 중 (%1번째)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>알 수 없음</translation>
    </message>
    <message>
        <source>File</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>Repository</source>
        <translation>저장소</translation>
    </message>
    <message>
        <source>State</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>진행</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>속도</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>남은 시간</translation>
    </message>
</context>
<context>
    <name>hearth::ui::DownloadsPage</name>
    <message>
        <source>Downloads</source>
        <translation>다운로드</translation>
    </message>
    <message>
        <source>Nothing is downloading. Pick a model on Discover to download it.</source>
        <translation>다운로드 중인 것이 없습니다. 찾아보기에서 모델을 골라 다운로드하세요.</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>일시 정지</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>이어 받기</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Remove from list</source>
        <translation>목록에서 지우기</translation>
    </message>
</context>
<context>
    <name>hearth::ui::FitTargetBar</name>
    <message>
        <source>Context:</source>
        <translation>컨텍스트:</translation>
    </message>
    <message>
        <source>Users:</source>
        <translation>사용자:</translation>
    </message>
    <message>
        <source>Fits on:</source>
        <translation>확인 대상:</translation>
    </message>
    <message>
        <source>system RAM (no GPU found)</source>
        <translation>시스템 RAM (GPU 없음)</translation>
    </message>
    <message>
        <source>system RAM when no GPU is checked</source>
        <translation>GPU를 선택하지 않으면 시스템 RAM</translation>
    </message>
    <message>
        <source>%1 free of %2</source>
        <translation>%2 중 %1 여유</translation>
    </message>
    <message>
        <source>system RAM</source>
        <translation>시스템 RAM</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>GPU %n개</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hearth::ui::GpuSelectionTable</name>
    <message>
        <source>Use</source>
        <translation>사용</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>여유</translation>
    </message>
    <message>
        <source>Utilization</source>
        <translation>사용률</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>온도</translation>
    </message>
    <message>
        <source>Layer share</source>
        <translation>레이어 비율</translation>
    </message>
    <message>
        <source>No NVIDIA GPU was found. The model will run on the CPU, which is fine for small models.</source>
        <translation>NVIDIA GPU를 찾지 못했습니다. 모델은 CPU에서 실행되며, 작은 모델에는 충분합니다.</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>not used</source>
        <translation>사용 안 함</translation>
    </message>
</context>
<context>
    <name>hearth::ui::HubSearchModel</name>
    <message>
        <source>Private</source>
        <translation>비공개</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>공개</translation>
    </message>
    <message>
        <source>Needs a token</source>
        <translation>토큰 필요</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>다운로드</translation>
    </message>
    <message>
        <source>Likes</source>
        <translation>좋아요</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>업데이트</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>접근</translation>
    </message>
</context>
<context>
    <name>hearth::ui::HubVariantTree</name>
    <message>
        <source>Quantization</source>
        <translation>양자화</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>Bits/weight</source>
        <translation>가중치당 비트</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>들어감</translation>
    </message>
    <message>
        <source> (vision projector)</source>
        <translation> (비전 프로젝터)</translation>
    </message>
    <message numerus="yes">
        <source> (%n part(s))</source>
        <translation>
            <numerusform> (파일 %n개)</numerusform>
        </translation>
    </message>
    <message>
        <source> — incomplete</source>
        <translation> — 불완전</translation>
    </message>
    <message>
        <source>yes (about %1 of %2)</source>
        <translation>예 (%2 중 약 %1)</translation>
    </message>
    <message>
        <source>yes (%1 of %2)</source>
        <translation>예 (%2 중 %1)</translation>
    </message>
    <message>
        <source>no (about %1, %2 free)</source>
        <translation>아니요 (약 %1, 여유 %2)</translation>
    </message>
    <message>
        <source>no (%1, %2 free)</source>
        <translation>아니요 (%1, 여유 %2)</translation>
    </message>
</context>
<context>
    <name>hearth::ui::KeyCreatedDialog</name>
    <message>
        <source>New API key</source>
        <translation>새 API 키</translation>
    </message>
    <message>
        <source>The key &lt;b&gt;%1&lt;/b&gt; was created. Copy it now and give it to whoever will use it: Hearth keeps only a fingerprint of it and cannot show it again.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 키를 만들었습니다. 지금 복사해서 사용할 사람에게 전달하세요. Hearth는 키의 지문만 보관하므로 다시 보여 줄 수 없습니다.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
</context>
<context>
    <name>hearth::ui::LibraryModel</name>
    <message>
        <source>File missing</source>
        <translation>파일 없음</translation>
    </message>
    <message>
        <source>Hashing %1</source>
        <translation>해시 계산 중 %1</translation>
    </message>
    <message>
        <source>Hashing</source>
        <translation>해시 계산 중</translation>
    </message>
    <message>
        <source>Unsupported architecture</source>
        <translation>지원하지 않는 아키텍처</translation>
    </message>
    <message>
        <source>Not hashed</source>
        <translation>해시 없음</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>준비됨</translation>
    </message>
    <message>
        <source>Added by hand</source>
        <translation>직접 추가</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>사용 안 함</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>아키텍처</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>양자화</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>매개변수</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>컨텍스트</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>출처</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>마지막 사용</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
</context>
<context>
    <name>hearth::ui::LibraryPage</name>
    <message>
        <source>Library</source>
        <translation>라이브러리</translation>
    </message>
    <message>
        <source>Models on this computer</source>
        <translation>이 컴퓨터의 모델</translation>
    </message>
    <message>
        <source>Add file…</source>
        <translation>파일 추가…</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>폴더 추가…</translation>
    </message>
    <message>
        <source>Load…</source>
        <translation>불러오기…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>삭제…</translation>
    </message>
    <message>
        <source>No models yet. Download one from Discover, or add a GGUF file or a folder of them.</source>
        <translation>아직 모델이 없습니다. 찾아보기에서 다운로드하거나 GGUF 파일 또는 폴더를 추가하세요.</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>자세히</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>키</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>Could not add %1: %2</source>
        <translation>%1을(를) 추가할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Could not scan %1: %2</source>
        <translation>%1을(를) 검사할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Add a model file</source>
        <translation>모델 파일 추가</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 모델 (*.gguf);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Add a folder of models</source>
        <translation>모델 폴더 추가</translation>
    </message>
    <message>
        <source>Delete model</source>
        <translation>모델 삭제</translation>
    </message>
    <message>
        <source>Remove &quot;%1&quot; from the library?</source>
        <translation>&quot;%1&quot;을(를) 라이브러리에서 지울까요?</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>지우기</translation>
    </message>
    <message>
        <source>Also delete the file from disk (%1)</source>
        <translation>디스크에서 파일도 삭제 (%1)</translation>
    </message>
    <message>
        <source>Could not delete %1: %2</source>
        <translation>%1을(를) 삭제할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>File</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>SHA-256</source>
        <translation>SHA-256</translation>
    </message>
    <message>
        <source>not computed yet</source>
        <translation>아직 계산하지 않음</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>레이어</translation>
    </message>
    <message>
        <source>KV cache per token (F16)</source>
        <translation>토큰당 KV 캐시 (F16)</translation>
    </message>
    <message>
        <source>Chat template…</source>
        <translation>채팅 템플릿…</translation>
    </message>
    <message>
        <source>Use your own chat template for this model</source>
        <translation>이 모델에 사용자 지정 채팅 템플릿 사용</translation>
    </message>
    <message>
        <source>Could not store the chat template: %1</source>
        <translation>채팅 템플릿을 저장하지 못했습니다: %1</translation>
    </message>
    <message>
        <source>Chat template</source>
        <translation>채팅 템플릿</translation>
    </message>
    <message>
        <source>the model&apos;s own</source>
        <translation>모델 기본값</translation>
    </message>
    <message numerus="yes">
        <source>your own (%n characters)</source>
        <translation>
            <numerusform>사용자 지정 (%n자)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hearth::ui::LoadDialog</name>
    <message>
        <source>Choose a draft model</source>
        <translation>초안 모델 선택</translation>
    </message>
    <message>
        <source>Choose a speculative index</source>
        <translation>추측 디코딩 색인 선택</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 모델 (*.gguf)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>모든 파일 (*)</translation>
    </message>
    <message>
        <source>Load %1</source>
        <translation>%1 불러오기</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2, %3, %4 layers, %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2, %3, 레이어 %4개, %5</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>옵션</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>추측 디코딩</translation>
    </message>
    <message>
        <source>Memory estimate</source>
        <translation>메모리 예상</translation>
    </message>
    <message>
        <source>Layers on the CPU</source>
        <translation>CPU에 둘 레이어</translation>
    </message>
    <message>
        <source>Context length (tokens)</source>
        <translation>컨텍스트 길이 (토큰)</translation>
    </message>
    <message>
        <source>KV cache type</source>
        <translation>KV 캐시 형식</translation>
    </message>
    <message>
        <source>RAM cache for KV (GiB, 0 = off)</source>
        <translation>KV용 RAM 캐시 (GiB, 0 = 끔)</translation>
    </message>
    <message>
        <source>Parallel users</source>
        <translation>동시 사용자</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>방식</translation>
    </message>
    <message>
        <source>Draft model or index</source>
        <translation>초안 모델 또는 색인</translation>
    </message>
    <message>
        <source>Most draft tokens per step</source>
        <translation>단계당 최대 초안 토큰</translation>
    </message>
    <message>
        <source>F16 (best quality)</source>
        <translation>F16 (최고 품질)</translation>
    </message>
    <message>
        <source>FP8 (half the memory)</source>
        <translation>FP8 (메모리 절반)</translation>
    </message>
    <message>
        <source>Q8 (half the memory)</source>
        <translation>Q8 (메모리 절반)</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>끔</translation>
    </message>
    <message>
        <source>Prompt lookup (n-gram)</source>
        <translation>프롬프트 조회 (n-gram)</translation>
    </message>
    <message>
        <source>Domain index</source>
        <translation>도메인 색인</translation>
    </message>
    <message>
        <source>Draft model</source>
        <translation>초안 모델</translation>
    </message>
    <message>
        <source>The longest conversation one user can have; KV memory grows with it.</source>
        <translation>한 사용자가 나눌 수 있는 가장 긴 대화입니다. 길수록 KV 메모리가 늘어납니다.</translation>
    </message>
    <message>
        <source>How many requests may generate at the same time.</source>
        <translation>동시에 생성할 수 있는 요청 수입니다.</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>불러오기</translation>
    </message>
    <message>
        <source>Cancel loading</source>
        <translation>불러오기 취소</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>닫기</translation>
    </message>
    <message>
        <source>Loading… %p%</source>
        <translation>불러오는 중… %p%</translation>
    </message>
    <message>
        <source>Choose the draft model or index file for speculative decoding.</source>
        <translation>추측 디코딩에 쓸 초안 모델이나 색인 파일을 고르세요.</translation>
    </message>
    <message>
        <source>Cannot load: %1</source>
        <translation>불러올 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>%1 불러오는 중…</translation>
    </message>
    <message>
        <source>Loading was cancelled.</source>
        <translation>불러오기를 취소했습니다.</translation>
    </message>
    <message>
        <source>Loading failed: %1</source>
        <translation>불러오기 실패: %1</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>취소하는 중…</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>자동</translation>
    </message>
    <message>
        <source>A tenth of the free memory, at most 16 GiB</source>
        <translation>여유 메모리의 10분의 1, 최대 16 GiB</translation>
    </message>
</context>
<context>
    <name>hearth::ui::MainWindow</name>
    <message numerus="yes">
        <source>%n file(s) queued; see Downloads.</source>
        <translation>
            <numerusform>파일 %n개를 대기열에 넣었습니다. 다운로드에서 확인하세요.</numerusform>
        </translation>
    </message>
    <message>
        <source>Add a model file</source>
        <translation>모델 파일 추가</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 모델 (*.gguf);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Add a folder of models</source>
        <translation>모델 폴더 추가</translation>
    </message>
    <message>
        <source>About Hearth</source>
        <translation>Hearth 정보</translation>
    </message>
    <message>
        <source>&lt;b&gt;Hearth %1&lt;/b&gt;&lt;p&gt;Runs language models on the GPUs an office already has, for several people at once.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Hearth %1&lt;/b&gt;&lt;p&gt;사무실에 이미 있는 GPU로 여러 사람이 함께 쓰는 언어 모델을 실행합니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Hearth</source>
        <translation>Hearth</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>Add model file…</source>
        <translation>모델 파일 추가…</translation>
    </message>
    <message>
        <source>Add model folder…</source>
        <translation>모델 폴더 추가…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>설정…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>모델(&amp;M)</translation>
    </message>
    <message>
        <source>Load selected model…</source>
        <translation>선택한 모델 불러오기…</translation>
    </message>
    <message>
        <source>Unload model</source>
        <translation>모델 내리기</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>대화(&amp;C)</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>새 대화</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>불러온 모델 없음</translation>
    </message>
    <message>
        <source>Loading a model…</source>
        <translation>모델 불러오는 중…</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>모델: %1</translation>
    </message>
    <message>
        <source>API off</source>
        <translation>API 꺼짐</translation>
    </message>
    <message>
        <source>API on this computer: %1</source>
        <translation>이 컴퓨터에서만 API: %1</translation>
    </message>
    <message>
        <source>API shared: %1</source>
        <translation>API 공유 중: %1</translation>
    </message>
</context>
<context>
    <name>hearth::ui::MemoryEstimateView</name>
    <message>
        <source>Device</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>레이어</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>가중치</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 캐시</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>기타</translation>
    </message>
    <message>
        <source>Needed</source>
        <translation>필요</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>여유</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>들어감</translation>
    </message>
    <message>
        <source>CPU (system RAM)</source>
        <translation>CPU (시스템 RAM)</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <source>no</source>
        <translation>아니요</translation>
    </message>
    <message>
        <source>Estimated total: %1. It fits.</source>
        <translation>예상 합계: %1. 들어갑니다.</translation>
    </message>
    <message>
        <source>Estimated total: %1. It does not fit: lower the context length or the number of parallel users, pick a smaller KV type, or move layers.</source>
        <translation>예상 합계: %1. 들어가지 않습니다. 컨텍스트 길이나 동시 사용자 수를 줄이거나, 더 작은 KV 형식을 고르거나, 레이어를 옮기세요.</translation>
    </message>
</context>
<context>
    <name>hearth::ui::ServerPage</name>
    <message>
        <source>New API key</source>
        <translation>새 API 키</translation>
    </message>
    <message>
        <source>Who is this key for?</source>
        <translation>누가 쓸 키인가요?</translation>
    </message>
    <message>
        <source>Browser origins saved.</source>
        <translation>브라우저 출처를 저장했습니다.</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>서버</translation>
    </message>
    <message>
        <source>Share the model with your colleagues</source>
        <translation>동료와 모델 공유하기</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>끔</translation>
    </message>
    <message>
        <source>This computer only</source>
        <translation>이 컴퓨터에서만</translation>
    </message>
    <message>
        <source>Office network (LAN)</source>
        <translation>사무실 네트워크 (LAN)</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>포트:</translation>
    </message>
    <message>
        <source>Copy address</source>
        <translation>주소 복사</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>API 키</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Key id</source>
        <translation>키 ID</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>만든 날짜</translation>
    </message>
    <message>
        <source>Create key…</source>
        <translation>키 만들기…</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>폐기</translation>
    </message>
    <message>
        <source>Clients in the last 10 minutes</source>
        <translation>최근 10분간의 클라이언트</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>주소</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>키</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>요청</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>마지막 접속</translation>
    </message>
    <message>
        <source>Access log</source>
        <translation>접근 기록</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>클라이언트</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>요청</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>프롬프트 토큰</translation>
    </message>
    <message>
        <source>Reply tokens</source>
        <translation>답변 토큰</translation>
    </message>
    <message>
        <source>Duration (ms)</source>
        <translation>소요 시간 (ms)</translation>
    </message>
    <message>
        <source>Browser origins allowed (CORS):</source>
        <translation>허용할 브라우저 출처 (CORS):</translation>
    </message>
    <message>
        <source>e.g. https://intranet.example.com, or * for any</source>
        <translation>예: https://intranet.example.com, 모두 허용은 *</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>적용</translation>
    </message>
    <message>
        <source>Sharing on the network needs an API key, so that only people you gave a key can use the model. Create a key first.</source>
        <translation>네트워크에 공유하려면 API 키가 있어야 합니다. 키를 받은 사람만 모델을 쓸 수 있게 하려는 것입니다. 먼저 키를 만드세요.</translation>
    </message>
    <message>
        <source>The server could not start: %1</source>
        <translation>서버를 시작할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>The API is off.</source>
        <translation>API가 꺼져 있습니다.</translation>
    </message>
    <message>
        <source>Programs on this computer can use %1</source>
        <translation>이 컴퓨터의 프로그램이 %1을(를) 쓸 수 있습니다</translation>
    </message>
    <message>
        <source>Give your colleagues: %1</source>
        <translation>동료에게 알려 줄 주소: %1</translation>
    </message>
    <message>
        <source>Needs an API key</source>
        <translation>API 키 필요</translation>
    </message>
    <message>
        <source>Could not create the key: %1</source>
        <translation>키를 만들 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Could not revoke the key: %1</source>
        <translation>키를 폐기할 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>hearth::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>Hub address</source>
        <translation>허브 주소</translation>
    </message>
    <message>
        <source>Hub access token</source>
        <translation>허브 액세스 토큰</translation>
    </message>
    <message>
        <source>Models folder</source>
        <translation>모델 폴더</translation>
    </message>
    <message>
        <source>Download folder</source>
        <translation>다운로드 폴더</translation>
    </message>
    <message>
        <source>API server port</source>
        <translation>API 서버 포트</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>https://huggingface.co, a mirror, or a server on your network</source>
        <translation>https://huggingface.co, 미러, 또는 사내 네트워크의 서버</translation>
    </message>
    <message>
        <source>Only needed for gated or private repositories</source>
        <translation>접근 제한 또는 비공개 저장소에만 필요합니다</translation>
    </message>
    <message>
        <source>The token is kept in the system keychain.</source>
        <translation>토큰은 시스템 키체인에 보관됩니다.</translation>
    </message>
    <message>
        <source>A token you enter is kept in the system keychain when one is available.</source>
        <translation>입력한 토큰은 시스템 키체인이 있으면 그곳에 보관됩니다.</translation>
    </message>
    <message>
        <source>Warning: no system keychain is available, so the token is kept in plain text in the settings file.</source>
        <translation>경고: 시스템 키체인을 쓸 수 없어 토큰이 설정 파일에 평문으로 보관됩니다.</translation>
    </message>
</context>
<context>
    <name>hearth::ui::TrayIcon</name>
    <message>
        <source>Hearth — server off</source>
        <translation>Hearth — 서버 꺼짐</translation>
    </message>
    <message>
        <source>Hearth — server on this computer only (%1)</source>
        <translation>Hearth — 이 컴퓨터에서만 서버 (%1)</translation>
    </message>
    <message>
        <source>Hearth — server shared on the network (%1)</source>
        <translation>Hearth — 네트워크에 서버 공유 중 (%1)</translation>
    </message>
    <message>
        <source>Hearth</source>
        <translation>Hearth</translation>
    </message>
    <message>
        <source>Show Hearth</source>
        <translation>Hearth 보기</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>끝내기</translation>
    </message>
</context>
<context>
    <name>hearth::ui::WelcomePage</name>
    <message>
        <source>Welcome</source>
        <translation>시작</translation>
    </message>
    <message>
        <source>Welcome to Hearth</source>
        <translation>Hearth에 오신 것을 환영합니다</translation>
    </message>
    <message>
        <source>Hearth runs language models on this computer and shares them with your colleagues over the office network. To begin, get a model: search the Hugging Face hub for a GGUF model that fits your machine, or add a GGUF file you already have.</source>
        <translation>Hearth는 이 컴퓨터에서 언어 모델을 실행하고 사무실 네트워크로 동료와 함께 씁니다. 먼저 모델을 준비하세요. Hugging Face 허브에서 이 컴퓨터에 맞는 GGUF 모델을 찾거나, 이미 있는 GGUF 파일을 추가하면 됩니다.</translation>
    </message>
    <message>
        <source>No GPU? That is fine: small models run well on the CPU, and Hearth uses any NVIDIA GPUs it finds.</source>
        <translation>GPU가 없어도 괜찮습니다. 작은 모델은 CPU에서도 잘 돌아가고, Hearth는 찾은 NVIDIA GPU를 모두 씁니다.</translation>
    </message>
    <message>
        <source>Find a model on Discover</source>
        <translation>찾아보기에서 모델 찾기</translation>
    </message>
    <message>
        <source>Add a model file…</source>
        <translation>모델 파일 추가…</translation>
    </message>
    <message>
        <source>Open the library</source>
        <translation>라이브러리 열기</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Hearth: language models for the office.</source>
        <translation>Hearth: 사무실을 위한 언어 모델.</translation>
    </message>
    <message>
        <source>Use this settings file (INI).</source>
        <translation>이 설정 파일(INI)을 사용합니다.</translation>
    </message>
    <message>
        <source>Keep databases and models here.</source>
        <translation>데이터베이스와 모델을 여기에 둡니다.</translation>
    </message>
    <message>
        <source>Save a screenshot of every page here and quit.</source>
        <translation>모든 페이지의 스크린샷을 여기에 저장하고 끝냅니다.</translation>
    </message>
    <message>
        <source>With --screenshots: load and chat with this model.</source>
        <translation>--screenshots와 함께: 이 모델을 불러와 대화합니다.</translation>
    </message>
    <message>
        <source>With --screenshots: search the hub for this.</source>
        <translation>--screenshots와 함께: 허브에서 이것을 검색합니다.</translation>
    </message>
    <message>
        <source>Write the 256 px icon as PNG and quit.</source>
        <translation>256픽셀 아이콘을 PNG로 저장하고 끝냅니다.</translation>
    </message>
</context>
</TS>
