#pragma once
// A one-line label that never cuts its text: when it is narrower than the text, the middle is elided
// ("sparsemap conv4/…, design #222960" keeps the number) and the full text is the tooltip.
#include <QLabel>
#include <QResizeEvent>

namespace sparsemap::ui {

class ElidedLabel : public QLabel {
public:
    using QLabel::QLabel;

    void setFullText(const QString& text)
    {
        m_full = text;
        updateElision();
    }
    QString fullText() const { return m_full; }
    bool isElided() const { return text() != m_full; }
    // Any width: the layout may shrink it, the text elides instead of clipping.
    QSize minimumSizeHint() const override { return {0, QLabel::minimumSizeHint().height()}; }
    QSize sizeHint() const override
    {
        return {fontMetrics().horizontalAdvance(m_full) + 2 * margin() + 4, QLabel::sizeHint().height()};
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QLabel::resizeEvent(event);
        updateElision();
    }

private:
    void updateElision()
    {
        const QString shown = fontMetrics().elidedText(m_full, Qt::ElideMiddle, contentsRect().width());
        if (shown != text())
            setText(shown);
        setToolTip(shown != m_full ? m_full : QString());
    }

    QString m_full;
};

} // namespace sparsemap::ui
