// translations/hearth_ko.ts is complete: every message has a finished, non-empty Korean
// translation that keeps the source's placeholders (%1, %n, …) and its accelerator ampersand,
// and the compiled catalogue is in the resources.
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

class TranslationsTest : public QObject {
    Q_OBJECT
private slots:
    void koreanIsComplete();
    void compiledCatalogueLoads();
    void englishHasPluralForms();
};

namespace {
QSet<QString> placeholders(const QString& s) {
    QSet<QString> out;
    static const QRegularExpression re("%(\\d+|n)");
    for (auto it = re.globalMatch(s); it.hasNext();) out.insert(it.next().captured(0));
    return out;
}
}  // namespace

void TranslationsTest::koreanIsComplete() {
    QFile f(QString(HEARTH_SOURCE_DIR) + "/translations/hearth_ko.ts");
    QVERIFY(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    QString context, source, translation;
    bool unfinished = false, numerus = false;
    int messages = 0;
    QStringList problems;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == u"name") context = xml.readElementText();
            if (xml.name() == u"message") {
                numerus = xml.attributes().value("numerus") == u"yes";
                source.clear();
                translation.clear();
                unfinished = false;
            }
            if (xml.name() == u"source") source = xml.readElementText();
            if (xml.name() == u"translation") {
                const auto type = xml.attributes().value("type");
                unfinished = type == u"unfinished" || type == u"vanished" || type == u"obsolete";
                if (!numerus) translation = xml.readElementText();
            }
            if (xml.name() == u"numerusform") translation += xml.readElementText();
        }
        if (xml.isEndElement() && xml.name() == u"message") {
            ++messages;
            const QString where = context + ": \"" + source + "\"";
            if (unfinished || translation.trimmed().isEmpty()) problems << "untranslated " + where;
            else if (placeholders(source) != placeholders(translation)) problems << "placeholders differ in " + where;
            else if (source.contains('&') && !source.contains("&&") && !translation.contains('&'))
                problems << "accelerator lost in " + where;
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY2(messages > 200, qPrintable(QString::number(messages)));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 20).join('\n')));
}

void TranslationsTest::compiledCatalogueLoads() {
    QTranslator t;
    QVERIFY(t.load(":/i18n/hearth_ko.qm"));
    QVERIFY(!t.isEmpty());
    QCOMPARE(t.translate("hearth::ui::ChatPage", "Send"), QString::fromUtf8("보내기"));
}

void TranslationsTest::englishHasPluralForms() {
    QTranslator t;
    QVERIFY(t.load(":/i18n/hearth_en.qm"));
    QCOMPARE(t.translate("hearth::ui::ChatMessageWidget", "%n token(s)", nullptr, 1), QString("%n token"));
    QCOMPARE(t.translate("hearth::ui::ChatMessageWidget", "%n token(s)", nullptr, 2), QString("%n tokens"));
    QCOMPARE(t.translate("hearth::ui::HubVariantTree", " (%n part(s))", nullptr, 2), QString(" (%n parts)"));
}

QTEST_MAIN(TranslationsTest)
#include "TranslationsTest.moc"
