#include "io/index_expression.hpp"

#include "util/limits.hpp"
#include "util/text.hpp"

#include <charconv>

namespace sparsemap::detail {

namespace {

std::string_view trim(std::string_view s)
{
    return trimBlanks(s);
}

std::string dimList(const std::vector<Dimension>& dims)
{
    std::string out;
    for (const auto& d : dims)
        out += (out.empty() ? "" : ", ") + d.name;
    return out;
}

bool parseCoefficient(std::string_view text, std::int64_t& value)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

int findDim(std::string_view name, const std::vector<Dimension>& dims)
{
    for (std::size_t i = 0; i < dims.size(); ++i)
        if (dims[i].name == name)
            return static_cast<int>(i);
    return -1;
}

} // namespace

Parsed<RankProjection> parseIndexExpression(std::string_view text, const std::vector<Dimension>& dims)
{
    const std::string allowed =
        "; a rank is a dim name or a sum of coef*dim terms such as `2*P + R`, over the "
        "dims " +
        dimList(dims);
    RankProjection rank;
    std::string_view rest = text;
    while (true) {
        const auto plus = rest.find('+');
        const std::string_view term = trim(rest.substr(0, plus));
        std::string_view name = term;
        std::int64_t coefficient = 1;
        if (const auto star = term.find('*'); star != std::string_view::npos) {
            // Either `coef*dim` or `dim*coef`.
            const std::string_view left = trim(term.substr(0, star)), right = trim(term.substr(star + 1));
            if (parseCoefficient(left, coefficient))
                name = right;
            else if (parseCoefficient(right, coefficient))
                name = left;
            else
                return {std::nullopt, "term `" + std::string(term) + "` of `" + std::string(text) +
                                          "` is not coef*dim" + allowed};
            if (coefficient < 1)
                return {std::nullopt, "coefficient " + std::to_string(coefficient) + " in `" +
                                          std::string(text) + "` must be a positive integer" + allowed};
            if (coefficient > kMaxCoefficient)
                return {std::nullopt, "coefficient " + std::to_string(coefficient) + " in `" +
                                          std::string(text) + "` is too large; at most " +
                                          std::to_string(kMaxCoefficient) + " (2^20)"};
        }
        if (name.empty())
            return {std::nullopt, "`" + std::string(text) + "` has an empty term" + allowed};
        const int dim = findDim(name, dims);
        if (dim < 0)
            return {std::nullopt, "`" + std::string(name) + "` in `" + std::string(text) +
                                      "` is not a dimension" + allowed};
        for (const auto& t : rank)
            if (t.dim == dim)
                return {std::nullopt, "dim " + std::string(name) + " appears twice in `" + std::string(text) +
                                          "`; combine the terms into one coef*dim"};
        rank.push_back(ProjectionTerm{dim, coefficient});
        if (plus == std::string_view::npos)
            break;
        rest = rest.substr(plus + 1);
    }
    return {rank, {}};
}

std::string indexExpressionText(const RankProjection& rank, const std::vector<Dimension>& dims)
{
    std::string out;
    for (const auto& term : rank) {
        if (!out.empty())
            out += " + ";
        if (term.coefficient != 1)
            out += std::to_string(term.coefficient) + "*";
        out += term.dim >= 0 && term.dim < static_cast<int>(dims.size()) ? dims[term.dim].name : "?";
    }
    return out;
}

} // namespace sparsemap::detail
