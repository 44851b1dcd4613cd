#pragma once
// Interns variable-length integer keys: each distinct key gets the next index (0, 1, 2, ...). The keys'
// elements sit back to back in one pool and are found by open addressing (linear probing) on a table
// of (fingerprint, index) slots, at most half full. A lookup touches one slot, almost always, and the
// key's own elements; an insertion allocates nothing but amortized growth. The model's occupancy cache
// and a run's genome set look keys up many times per evaluation, where a node-based map's chain of
// pointers (bucket, node, key) costs a cache miss at every step.
#include "util/hash.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace sparsemap {

template <class T> class FlatKeyIndex {
    static_assert(std::is_integral_v<T>, "keys are sequences of integers");

public:
    static constexpr std::uint32_t npos = ~std::uint32_t{0};

    // The index of `key`, or npos.
    std::uint32_t find(std::span<const T> key) const
    {
        if (m_slots.empty())
            return npos;
        return index(m_slots[probe(key, hash(key))]);
    }
    // The index of `key`, added as the next one when absent (then `second` is true).
    std::pair<std::uint32_t, bool> insert(std::span<const T> key)
    {
        if (2 * (size() + 1) > m_slots.size())
            rehash(std::max<std::size_t>(64, 2 * m_slots.size()));
        const std::uint64_t h = hash(key);
        auto& slot = m_slots[probe(key, h)];
        if (slot != 0)
            return {index(slot), false};
        const auto added = static_cast<std::uint32_t>(size());
        slot = (h << 32) | (std::uint64_t{added} + 1);
        m_pool.insert(m_pool.end(), key.begin(), key.end());
        m_ends.push_back(m_pool.size());
        return {added, true};
    }
    std::span<const T> key(std::uint32_t i) const
    {
        const std::size_t begin = i == 0 ? 0 : m_ends[i - 1];
        return {m_pool.data() + begin, m_ends[i] - begin};
    }
    std::size_t size() const { return m_ends.size(); }
    // Forgets every key; keeps the memory for the next ones.
    void clear()
    {
        std::fill(m_slots.begin(), m_slots.end(), std::uint64_t{0});
        m_ends.clear();
        m_pool.clear();
    }

private:
    static std::uint64_t hash(std::span<const T> key)
    {
        std::uint64_t h = key.size();
        for (const T v : key)
            h = (h ^ static_cast<std::uint64_t>(v)) * 0x9e3779b97f4a7c15ULL + (h >> 29);
        return splitmix64(h);
    }
    static std::uint32_t index(std::uint64_t slot)
    {
        return slot == 0 ? npos : static_cast<std::uint32_t>(slot) - 1;
    }
    // The slot holding `key`, or the empty slot where it would go. The table's position comes from
    // the hash's high bits, the slot's fingerprint from its low ones.
    std::size_t probe(std::span<const T> key, std::uint64_t h) const
    {
        const std::size_t mask = m_slots.size() - 1;
        const auto fingerprint = static_cast<std::uint32_t>(h);
        for (std::size_t at = static_cast<std::size_t>(h >> m_shift);; at = (at + 1) & mask) {
            const std::uint64_t slot = m_slots[at];
            if (slot == 0)
                return at;
            if (static_cast<std::uint32_t>(slot >> 32) == fingerprint &&
                std::ranges::equal(this->key(index(slot)), key))
                return at;
        }
    }
    void rehash(std::size_t slots)
    {
        m_slots.assign(slots, 0);
        m_shift = 64 - std::countr_zero(slots);
        for (std::uint32_t i = 0; i < size(); ++i) {
            const auto k = key(i);
            const std::uint64_t h = hash(k);
            std::size_t at = static_cast<std::size_t>(h >> m_shift);
            while (m_slots[at] != 0)
                at = (at + 1) & (slots - 1);
            m_slots[at] = (h << 32) | (std::uint64_t{i} + 1);
        }
    }

    std::vector<std::uint64_t> m_slots; // 0: empty; else fingerprint << 32 | (index + 1)
    int m_shift = 64;
    std::vector<std::size_t> m_ends; // key i is m_pool[m_ends[i - 1], m_ends[i]) (from 0 for i = 0)
    std::vector<T> m_pool;
};

} // namespace sparsemap
