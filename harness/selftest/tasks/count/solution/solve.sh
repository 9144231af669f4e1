cd /workspace
sort -u words.txt | wc -l > words-count.txt
printf '%s\n' 'sort -u "$1" | wc -l' > count.sh
