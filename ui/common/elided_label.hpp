#pragma once
// A one-line label that never cuts its text: when it is narrower than the text, the middle is elided
// and the last word is kept whole ("sparsemap conv4/…, design #222960" keeps the number, down to
// "…#222960"); the full text is the tooltip.
#include <QFontMetrics>
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
        const QFontMetrics fm = fontMetrics();
        const int width = contentsRect().width();
        QString shown = m_full;
        if (fm.horizontalAdvance(m_full) > width) {
            const QString tail = m_full.mid(m_full.lastIndexOf(' ') + 1); // the whole text if one word
            const QString head = m_full.left(m_full.size() - tail.size());
            const QString ellipsis(QChar(0x2026));
            const int room = width - fm.horizontalAdvance(tail);
            shown = room > fm.horizontalAdvance(ellipsis) && !head.isEmpty()
                        ? fm.elidedText(head, Qt::ElideMiddle, room) + tail
                        : ellipsis + tail;
            if (shown == tail) // elidedText gave up on the head: still say that something is left out
                shown = ellipsis + tail;
        }
        if (shown != text())
            setText(shown);
        setToolTip(shown != m_full ? m_full : QString());
    }

    QString m_full;
};

} // namespace sparsemap::ui
