// The Library page: add a real GGUF file, see its metadata, refuse a non-GGUF file with a clear
// message, delete with confirmation (cancel keeps it; confirm with "also delete the file" removes
// the file too); a per-model chat template override through ChatTemplateDialog (a template that
// does not parse is refused with the parser's message; the override survives reopening the library
// and reaches the engine configuration the load dialog builds; "use the model's own" clears it).
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

#include <QPlainTextEdit>

#include "ChatTemplateDialog.h"
#include "LibraryModel.h"
#include "LoadDialog.h"
#include "LibraryPage.h"
#include "UiTestEnv.h"
#include "library/ModelLibrary.h"

using namespace hearth;
using hearth::test::UiTestEnv;

class LibraryPageTest : public QObject {
    Q_OBJECT
private slots:
    void addsAModelAndShowsItsMetadata();
    void refusesAFileThatIsNotGguf();
    void deleteAsksFirst();
    void perModelChatTemplate();
};

namespace {
QString metadataValue(QTableWidget* t, const QString& key) {
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 0)->text() == key) return t->item(r, 1)->text();
    return {};
}
void clickButton(QWidget* box, const QString& text) {
    for (QAbstractButton* b : box->findChildren<QAbstractButton*>())
        if (b->text().remove('&') == text) return b->click();
    QFAIL(qPrintable("no button " + text));
}
}  // namespace

void LibraryPageTest::addsAModelAndShowsItsMetadata() {
    UiTestEnv env;
    ui::LibraryPage page(env.services().library());
    page.resize(900, 600);
    page.show();
    auto* hint = page.findChild<QLabel*>("libraryEmptyHint");
    QVERIFY(hint->isVisible());
    QVERIFY(page.addFile(UiTestEnv::modelPath()));
    QVERIFY(!hint->isVisible());
    auto* table = page.findChild<QTableView*>("libraryTable");
    QCOMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, ui::LibraryModel::Architecture).data().toString(), QString("llama"));
    QCOMPARE(table->model()->index(0, ui::LibraryModel::Quantization).data().toString(), QString("F32"));
    QVERIFY(page.selectedId() > 0);
    auto* meta = page.findChild<QTableWidget*>("metadataTable");
    QCOMPARE(metadataValue(meta, "general.architecture"), QString("\"llama\""));  // the engine's display form
    QCOMPARE(metadataValue(meta, "llama.block_count"), QString("5"));
    QCOMPARE(metadataValue(meta, "Layers"), QString("5"));
    // The hash runs on the worker thread; the page shows it when done.
    QTRY_COMPARE_WITH_TIMEOUT(metadataValue(meta, "SHA-256"),
                              QString("270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d"), 15000);
    QCOMPARE(table->model()->index(0, ui::LibraryModel::Status).data().toString(), QString("Ready"));
    QVERIFY(page.findChild<QPushButton*>("loadButton")->isEnabled());
    QSignalSpy load(&page, &ui::LibraryPage::loadRequested);
    QTest::mouseClick(page.findChild<QPushButton*>("loadButton"), Qt::LeftButton);
    QCOMPARE(load.size(), 1);
    QCOMPARE(load.first()[0].toLongLong(), page.selectedId());
}

void LibraryPageTest::refusesAFileThatIsNotGguf() {
    UiTestEnv env;
    ui::LibraryPage page(env.services().library());
    QFile junk(env.tempPath("junk.gguf"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("this is not a gguf file at all");
    junk.close();
    QVERIFY(!page.addFile(junk.fileName()));
    auto* message = page.findChild<QLabel*>("libraryMessage");
    QVERIFY(!message->isHidden());
    QVERIFY2(message->text().contains("junk.gguf"), qPrintable(message->text()));
    QCOMPARE(page.model()->rowCount(), 0);
}

void LibraryPageTest::deleteAsksFirst() {
    UiTestEnv env;
    const QString copy = env.tempPath("copy-stories.gguf");
    QVERIFY(QFile::copy(UiTestEnv::modelPath(), copy));
    ui::LibraryPage page(env.services().library());
    page.show();
    QVERIFY(page.addFile(copy));
    QCOMPARE(page.model()->rowCount(), 1);

    // Cancel: nothing changes.
    UiTestEnv::answerNextModal([](QWidget* box) {
        QVERIFY(box->objectName() == "deleteConfirmation");
        clickButton(box, "Cancel");
    });
    QTest::mouseClick(page.findChild<QPushButton*>("deleteButton"), Qt::LeftButton);
    QCOMPARE(page.model()->rowCount(), 1);
    QVERIFY(QFile::exists(copy));

    // Remove and delete the file.
    UiTestEnv::answerNextModal([](QWidget* box) {
        box->findChild<QCheckBox*>("deleteFileCheck")->setChecked(true);
        clickButton(box, "Remove");
    });
    page.deleteSelected();
    QCOMPARE(page.model()->rowCount(), 0);
    QVERIFY(!QFile::exists(copy));
    QVERIFY(env.services().library().models().isEmpty());
}

void LibraryPageTest::perModelChatTemplate() {
    UiTestEnv env;
    ui::LibraryPage page(env.services().library());
    page.show();
    QVERIFY(page.addFile(UiTestEnv::modelPath()));
    const qint64 id = page.selectedId();
    QVERIFY(page.findChild<QPushButton*>("chatTemplateButton")->isEnabled());

    // The dialog starts from the file's template (stories260K has none: empty) and refuses junk.
    ui::ChatTemplateDialog dialog("stories", QString(), QString());
    dialog.editor()->setPlainText("{% for m in messages %}{{ m.content }");
    QVERIFY(!dialog.save());
    QVERIFY2(dialog.error().contains("parse"), qPrintable(dialog.error()));
    const QString mine = "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}";
    dialog.editor()->setPlainText(mine);
    QVERIFY(dialog.save());
    QCOMPARE(dialog.templateSource(), mine);
    QVERIFY(page.setChatTemplate(id, dialog.templateSource()));
    QCOMPARE(env.services().library().model(id)->chatTemplate, mine);

    // Stored in SQLite: a second library on the same database file sees it.
    app::ModelLibrary reopened;
    QVERIFY(reopened.open(env.services().library().databasePath()).ok());
    QCOMPARE(reopened.model(id)->chatTemplate, mine);

    // The load dialog hands it to the engine.
    ui::LoadDialog load(*env.services().library().model(id), env.services().gpus(), env.services().engine());
    QCOMPARE(QString::fromStdString(load.config().chatTemplateOverride), mine);

    // Back to the file's own.
    ui::ChatTemplateDialog again("stories", mine, QString());
    QCOMPARE(again.editor()->toPlainText(), mine);
    again.useModelsOwn();
    QVERIFY(page.setChatTemplate(id, again.templateSource()));
    QVERIFY(env.services().library().model(id)->chatTemplate.isEmpty());
}

QTEST_MAIN(LibraryPageTest)
#include "LibraryPageTest.moc"
