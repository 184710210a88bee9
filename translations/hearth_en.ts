<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>hearth::ui::ChatMessageWidget</name>
        <message numerus="yes">
            <source>%n prompt token(s)</source>
            <translation>
                <numerusform>%n prompt token</numerusform>
                <numerusform>%n prompt tokens</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n token(s)</source>
            <translation>
                <numerusform>%n token</numerusform>
                <numerusform>%n tokens</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>hearth::ui::ChatPage</name>
        <message numerus="yes">
            <source>The %n oldest message(s) no longer fit the model's context and were left out of this reply.</source>
            <translation>
                <numerusform>The %n oldest message no longer fit the model's context and were left out of this reply.</numerusform>
                <numerusform>The %n oldest messages no longer fit the model's context and were left out of this reply.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>hearth::ui::ConversationListModel</name>
        <message numerus="yes">
            <source>%n message(s), updated %1</source>
            <translation>
                <numerusform>%n message, updated %1</numerusform>
                <numerusform>%n messages, updated %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>hearth::ui::DiscoverPage</name>
        <message numerus="yes">
            <source>%n model(s) found.</source>
            <translation>
                <numerusform>%n model found.</numerusform>
                <numerusform>%n models found.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;%1&lt;/b&gt; — %n variant(s)</source>
            <translation>
                <numerusform>&lt;b&gt;%1&lt;/b&gt; — %n variant</numerusform>
                <numerusform>&lt;b&gt;%1&lt;/b&gt; — %n variants</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Queued %n file(s) for download.</source>
            <translation>
                <numerusform>Queued %n file for download.</numerusform>
                <numerusform>Queued %n files for download.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>hearth::ui::FitTargetBar</name>
        <message numerus="yes">
            <source>%n GPU(s)</source>
            <translation>
                <numerusform>%n GPU</numerusform>
                <numerusform>%n GPUs</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>hearth::ui::HubVariantTree</name>
        <message numerus="yes">
            <source> (%n part(s))</source>
            <translation>
                <numerusform> (%n part)</numerusform>
                <numerusform> (%n parts)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>hearth::ui::MainWindow</name>
        <message numerus="yes">
            <source>%n file(s) queued; see Downloads.</source>
            <translation>
                <numerusform>%n file queued; see Downloads.</numerusform>
                <numerusform>%n files queued; see Downloads.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>hearth::ui::LibraryPage</name>
        <message numerus="yes">
            <source>your own (%n characters)</source>
            <translation>
                <numerusform>your own (%n character)</numerusform>
                <numerusform>your own (%n characters)</numerusform>
            </translation>
        </message>
    </context>
</TS>
