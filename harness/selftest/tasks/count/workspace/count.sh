# Prints the number of distinct words in "$1" (to do).
echo 0
