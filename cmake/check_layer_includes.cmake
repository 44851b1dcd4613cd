# Fails when a source of a core layer includes a file of a layer it does not link (core/CMakeLists.txt).
# LIST_FILE sets LAYER, ALLOWED (the layers it may include), SOURCES (its files, absolute) and FORBIDDEN
# (the other layers' files, as #include names them); STAMP is touched when every include is allowed.
cmake_minimum_required(VERSION 3.25)
include(${LIST_FILE})
set(problems 0)
string(REPLACE ";" ", " allowedText "${ALLOWED}")
foreach(source IN LISTS SOURCES)
  file(STRINGS ${source} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" included "${line}")
    if(included IN_LIST FORBIDDEN)
      # The line number, for an editor-clickable message.
      file(READ ${source} text)
      string(FIND "${text}" "\"${included}\"" at)
      string(SUBSTRING "${text}" 0 ${at} before)
      string(REGEX MATCHALL "\n" newlines "${before}")
      list(LENGTH newlines lineNumber)
      math(EXPR lineNumber "${lineNumber} + 1")
      # NOTICE prints the line as it is (FATAL_ERROR would rewrap it), so editors can jump to it.
      message(NOTICE "${source}:${lineNumber}: error: core layer '${LAYER}' includes \"${included}\", which "
                     "is in a layer it does not link (it may include: ${allowedText}; see core/CMakeLists.txt)")
      math(EXPR problems "${problems} + 1")
    endif()
  endforeach()
endforeach()
if(problems GREATER 0)
  message(FATAL_ERROR "${problems} include(s) across layers in core layer ${LAYER}")
endif()
file(TOUCH ${STAMP})
