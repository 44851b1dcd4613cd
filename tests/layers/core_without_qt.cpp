// A program of the core alone (tests/layers/CMakeLists.txt links every core object into it, without
// Qt): it lists the search methods, so that it does something with what it links.
#include "search/method_registry.hpp"

#include <cstdio>

int main()
{
    for (const auto& method : sparsemap::search::searchMethods())
        std::printf("%s\n", method.name.c_str());
    return 0;
}
