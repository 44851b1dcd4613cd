#pragma once
// Hands a result from a worker thread to the QObject that started the work, on that object's thread.
// The call is queued; when the object has been destroyed meanwhile it is dropped (the QPointer is
// checked on arrival), so a worker never touches a dead object or a widget off the GUI thread.
#include <QMetaObject>
#include <QPointer>

#include <utility>

namespace sparsemap::ui {

template <typename Owner, typename Call> void postToOwner(const QPointer<Owner>& owner, Call call)
{
    QMetaObject::invokeMethod(
        owner.data(),
        [owner, call = std::move(call)]() mutable {
            if (owner)
                call(*owner);
        },
        Qt::QueuedConnection);
}

} // namespace sparsemap::ui
